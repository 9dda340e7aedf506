import { useMemo, useState } from 'react'
import type { HistoryEntryView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { formatAmount, formatMoment, runOutcome, statusLabel } from '../../shared/format'
import { plural } from '../../shared/amounts'
import { StatusBadge } from '../components/StatusBadge'
import { VirtualRow, VirtualTable } from '../components/VirtualTable'

const ROW_HEIGHT = 68

/** What the history says about a submission's state, in words. */
export function submissionStateText(entry: HistoryEntryView): string {
  switch (entry.state) {
    case 'pending':
      return 'Not sent yet'
    case 'sent':
      return 'Sent, waiting for the service’s answer'
    case 'refused':
      return entry.error ? `Refused: ${entry.error}` : 'Refused by the service'
    default:
      if (!entry.runStatus) return 'Accepted'
      return entry.runCounts
        ? runOutcome({ status: entry.runStatus, ...entry.runCounts }).label
        : statusLabel(entry.runStatus)
  }
}

/** Every submission from this device, virtualized; more are asked for near the end. */
export function HistoryList(props: {
  items: HistoryEntryView[]
  onOpen: (entry: HistoryEntryView) => void
  onEndReached?: () => void
}) {
  // The runs listed, so a follow-up listed right under its run can say so.
  const listed = useMemo(
    () => new Set(props.items.map((item) => runKey(item.environment, item.runId))),
    [props.items],
  )
  return (
    <VirtualTable
      items={props.items}
      itemKey={entryKey}
      rowHeight={ROW_HEIGHT}
      label="History, scrollable"
      tableClassName="history-table"
      onEndReached={props.onEndReached}
      columns={['Submitted', 'Input and template', 'Run', 'Cost', 'Saved here']}
      renderRow={(entry, place) => {
        const when = new Date(entry.createdAtMs)
        const under =
          !!entry.followUpOfRunId && listed.has(runKey(entry.environment, entry.followUpOfRunId))
        return (
          <VirtualRow
            data-history-id={String(entry.id)}
            {...(under ? { 'data-follow-up': 'under-its-run' } : {})}
            place={place}
          >
            <td>
              <time dateTime={when.toISOString()}>{formatMoment(when, 'date')}</time>
              <span className="run-sub">
                {formatMoment(when, 'time')} · {entry.environment}
              </span>
            </td>
            <td>
              <span className="run-name">{entry.inputFilename || 'Rows without a file'}</span>
              <span className="run-sub" title={linkWords(entry)}>
                {entry.targetKind === 'listing' ? 'Listing' : 'Template'} {entry.target} ·{' '}
                {plural(entry.rows, 'row')}
                {entry.setAsideRows ? ` · ${entry.setAsideRows} set aside to fix` : ''}
                {followUpWords(entry, listed)}
                {entry.batchOfRunId
                  ? ' · rest of a pilot'
                  : entry.batchRests?.length
                    ? ' · pilot'
                    : ''}
              </span>
            </td>
            <RunCell entry={entry} onOpen={props.onOpen} />
            <td className="num">
              {entry.costIsEstimate && entry.costT > 0 ? 'about ' : ''}
              {formatAmount(entry.costT, entry.unitLabel)}
            </td>
            <td className="num">
              {entry.downloadedFiles
                ? `${entry.downloadedFiles} file${entry.downloadedFiles === 1 ? '' : 's'}`
                : entry.setAsideRows
                  ? ''
                  : '—'}
              {entry.setAsideRows ? <RowsToFix entry={entry} /> : null}
            </td>
          </VirtualRow>
        )
      }}
    />
  )
}

const entryKey = (entry: HistoryEntryView) => String(entry.id)
const runKey = (environment: string, runId: string) => `${environment}\n${runId}`

/**
 * How a run is linked to the others (docs/glossary.md): a follow-up (its rows were set aside
 * from a run and fixed) is not a retry (failed rows sent again). History lists a follow-up right
 * under its run when both are listed (`listed`: the runs in the list).
 */
function followUpWords(entry: HistoryEntryView, listed: Set<string>): string {
  const parts: string[] = []
  if (entry.followUpOfRunId)
    parts.push(
      listed.has(runKey(entry.environment, entry.followUpOfRunId))
        ? 'follow-up of the run above'
        : 'follow-up of an earlier run',
    )
  else if (entry.retryOfRunId) parts.push('retry of an earlier run')
  const followUps = entry.followUps ?? []
  const below = followUps.filter((runId) => listed.has(runKey(entry.environment, runId))).length
  if (below > 0) parts.push(`${plural(below, 'follow-up')} below`)
  if (followUps.length > below) parts.push(`${plural(followUps.length - below, 'follow-up')} sent`)
  return parts.map((part) => ` · ${part}`).join('')
}

/** The runs an entry is linked to, named in full on hover: its batch and its follow-ups. */
function linkWords(entry: HistoryEntryView): string | undefined {
  const lines: string[] = []
  if (entry.batchOfRunId) lines.push(`The rest of the workbook of pilot run ${entry.batchOfRunId}`)
  else if (entry.batchRests?.length)
    lines.push(`A pilot; the rest was sent in ${entry.batchRests.join(', ')}`)
  if (entry.followUpOfRunId)
    lines.push(`The fixed rows set aside from run ${entry.followUpOfRunId}`)
  if (entry.followUps?.length)
    lines.push(`Its fixed rows were sent in ${entry.followUps.join(', ')}`)
  return lines.length > 0 ? lines.join('. ') : undefined
}

/** The rows set aside to fix when the run was sent, a click away. */
function RowsToFix(props: { entry: HistoryEntryView }) {
  const { prepare } = useStores()
  const [problem, setProblem] = useState<string | null>(null)
  const { entry } = props
  const open = async () => {
    const error = await prepare.getState().openRowsToFix(entry.environment, entry.runId)
    setProblem(error ? `${error.message} ${error.nextStep ?? ''}`.trim() : null)
  }
  return (
    <>
      <button
        type="button"
        className="link-button"
        aria-label={`Open the ${plural(entry.setAsideRows ?? 0, 'row')} to fix`}
        title={problem ?? 'The rows set aside when this run was sent: fix them and send them again'}
        onClick={() => void open()}
      >
        {plural(entry.setAsideRows ?? 0, 'row')} to fix
      </button>
      {problem && (
        <span role="alert" className="run-sub" title={problem}>
          {problem}
        </span>
      )}
    </>
  )
}

/** The run a submission became (its status and a link), or how far the submission got. */
function RunCell(props: { entry: HistoryEntryView; onOpen: (entry: HistoryEntryView) => void }) {
  return (
    <td>
      {props.entry.runId ? (
        <>
          <span className="history-run">
            {props.entry.runStatus ? (
              <StatusBadge
                status={props.entry.runStatus}
                {...(props.entry.runCounts
                  ? { run: { status: props.entry.runStatus, ...props.entry.runCounts } }
                  : {})}
              />
            ) : (
              <span className="run-sub">{submissionStateText(props.entry)}</span>
            )}
            <button
              type="button"
              className="link-button"
              aria-label={`Open run ${props.entry.runId}`}
              onClick={() => props.onOpen(props.entry)}
            >
              Open run
            </button>
          </span>
          {props.entry.retries.length > 0 && (
            <span className="run-sub" title={props.entry.retries.join(', ')}>
              Rows sent again{' '}
              {props.entry.retries.length === 1 ? 'once' : `${props.entry.retries.length} times`}
            </span>
          )}
        </>
      ) : (
        <span className="run-sub">{submissionStateText(props.entry)}</span>
      )}
    </td>
  )
}
