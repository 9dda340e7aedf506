import { useMemo, useState } from 'react'
import type { HistoryEntryView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { formatAmount, formatMoment, runOutcome, statusLabel } from '../../shared/format'
import { plural } from '../../shared/format/amounts'
import { StatusBadge } from '../components/StatusBadge'
import { VirtualRow, VirtualTable } from '../components/VirtualTable'
import { sendKindWords } from '../../shared/format/batch-words'
import { historyRowKey, historyRows, type HistoryRow } from './batch-groups'
import { BatchHead } from './BatchHead'

/** What the history table is, whatever entries it shows. */
const HISTORY_TABLE = {
  itemKey: historyRowKey,
  // Room for a status that wraps to three lines in a narrow window with a line under it
  // ("Rows sent again once"): at 68 px that line was cut off at 860 px wide.
  rowHeight: 80,
  label: 'History, scrollable',
  tableClassName: 'history-table',
  columns: ['Submitted', 'Input and template', 'Run', 'Cost', 'Saved here'],
}

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

/**
 * The template or listing a submission ran, by the name the rest of the app uses; by its kind and
 * id only when nothing on this computer names it.
 */
function targetWords(entry: Pick<HistoryEntryView, 'targetName' | 'targetKind' | 'target'>) {
  if (entry.targetName) return entry.targetName
  return `${entry.targetKind === 'listing' ? 'Listing' : 'Template'} ${entry.target}`
}

/** The tag of a run that asked the service to call an address when it ends (on hover). */
const CALLBACK_TAG = 'tells another service'

/**
 * How many rows a submission sent and what else it was (a pilot, the rest of one, a retry, a
 * redo, rows set aside): short words the row shows whole, after the template's name, which gives
 * way first in a narrow window. A run of a batch is named by how it was sent in it.
 */
function tagWords(entry: HistoryEntryView): string[] {
  const tags = [plural(entry.rows, 'row')]
  if (entry.setAsideRows) tags.push(`${entry.setAsideRows} set aside to fix`)
  if (entry.sendKind) {
    if (entry.sendKind !== 'all') tags.push(sendKindWords(entry.sendKind))
  } else {
    if (entry.retryOfRunId && !entry.followUpOfRunId) tags.push('retry of an earlier run')
    if (entry.batchOfRunId) tags.push('rest of a pilot')
    else if (entry.batchRests?.length) tags.push('pilot')
  }
  if (entry.callbackUrl) tags.push(CALLBACK_TAG)
  return tags
}

/**
 * Every submission from this device, virtualized; more are asked for near the end. The runs of
 * one sheet (a batch) are listed together under a head row naming it.
 */
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
  // Hover titles name the runs a submission is linked to in words, read from the entries loaded.
  const byRun = useMemo(() => entriesByRun(props.items), [props.items])
  const batchWords = (entry: HistoryEntryView) => batchTitle(entry, byRun)
  const rows = useMemo(() => historyRows(props.items), [props.items])
  return (
    <VirtualTable<HistoryRow>
      {...HISTORY_TABLE}
      items={rows}
      onEndReached={props.onEndReached}
      renderRow={(row, place) => {
        if (row.kind === 'batch') return <BatchHead head={row} place={place} />
        const { entry } = row
        const when = new Date(entry.createdAtMs)
        const under = isListed(listed, entry.environment, entry.followUpOfRunId)
        // The history lists the rest of a pilot right under it: one batch.
        const restUnder = isListed(listed, entry.environment, entry.batchOfRunId)
        return (
          <VirtualRow
            data-history-id={String(entry.id)}
            data-run-id={entry.runId}
            {...(under ? { 'data-follow-up': 'under-its-run' } : {})}
            {...(restUnder ? { 'data-batch': 'under-its-pilot' } : {})}
            {...(row.inBatch ? { 'data-in-batch': entry.batchId ?? '' } : {})}
            place={place}
          >
            <td>
              <time dateTime={when.toISOString()}>{formatMoment(when, 'date')}</time>
              <span
                className="run-sub"
                title={`Sent ${formatMoment(when, 'date')} at ${formatMoment(when, 'time')}, in ${entry.environment}`}
              >
                {formatMoment(when, 'time')} · {entry.environment}
              </span>
            </td>
            <WhatCell entry={entry} title={batchWords(entry) ?? targetWords(entry)} />
            <RunCell
              entry={entry}
              links={followUpWords(entry, listed)}
              byRun={byRun}
              onOpen={props.onOpen}
            />
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

const runKey = (environment: string, runId: string) => `${environment}\n${runId}`

/** Whether the run `runId` of `environment` is in the list (the runs `listed` by runKey). */
const isListed = (listed: Set<string>, environment: string, runId?: string) =>
  !!runId && listed.has(runKey(environment, runId))

/**
 * How a run is linked to its follow-ups (docs/glossary.md: its set-aside rows, fixed and sent
 * later; not a retry of failed rows), or to the pilot it is the rest of. History lists a
 * follow-up or a rest right under its run when both are listed (`listed`: the runs in the
 * list). '' when it has none.
 */
function followUpWords(entry: HistoryEntryView, listed: Set<string>): string {
  const here = (runId: string) => isListed(listed, entry.environment, runId)
  const parts: string[] = []
  if (here(entry.batchOfRunId ?? '')) parts.push('Rest of the pilot above')
  if (entry.followUpOfRunId)
    parts.push(
      here(entry.followUpOfRunId) ? 'Follow-up of the run above' : 'Follow-up of an earlier run',
    )
  const followUps = entry.followUps ?? []
  const below = followUps.filter(here).length
  if (below > 0) parts.push(`${plural(below, 'follow-up')} below`)
  if (followUps.length > below) parts.push(`${plural(followUps.length - below, 'follow-up')} sent`)
  return parts.join(' · ')
}

type EntriesByRun = ReadonlyMap<string, HistoryEntryView>

function entriesByRun(items: readonly HistoryEntryView[]): EntriesByRun {
  return new Map(items.filter((e) => e.runId).map((e) => [e.runId, e]))
}

/**
 * A linked run as a buyer knows it: its workbook (or template), when it was sent, how it went.
 * A run whose entry is not loaded is named without its id (the id is on the row's data-run-id).
 */
function linkedRunWords(runId: string, byRun: EntriesByRun): string {
  const entry = byRun.get(runId)
  if (!entry) return 'a run not in this list'
  const when = new Date(entry.createdAtMs)
  const what = entry.inputFilename || targetWords(entry)
  const sent = `${formatMoment(when, 'date')} ${formatMoment(when, 'time')}`
  return `${what}, sent ${sent} (${submissionStateText(entry).toLowerCase()})`
}

/** A pilot and its rest are one batch: each names the other runs (in words, on hover). */
function batchTitle(entry: HistoryEntryView, byRun: EntriesByRun): string | undefined {
  if (entry.batchOfRunId)
    return `The rest of the workbook of a pilot: ${linkedRunWords(entry.batchOfRunId, byRun)}`
  if (entry.batchRests?.length)
    return `A pilot; the rest was sent in ${entry.batchRests.map((id) => linkedRunWords(id, byRun)).join('; ')}`
  return undefined
}

/** A run and its follow-ups, named in full on hover. */
function linkWords(entry: HistoryEntryView, byRun: EntriesByRun): string | undefined {
  const lines: string[] = []
  if (entry.followUpOfRunId)
    lines.push(`The fixed rows set aside from ${linkedRunWords(entry.followUpOfRunId, byRun)}`)
  if (entry.followUps?.length)
    lines.push(
      `Its fixed rows were sent in ${entry.followUps.map((id) => linkedRunWords(id, byRun)).join('; ')}`,
    )
  return lines.length > 0 ? lines.join('. ') : undefined
}

/** What a submission sent (its workbook) and ran (the template's name, then its short tags). */
function WhatCell(props: { entry: HistoryEntryView; title: string }) {
  return (
    <td>
      <span className="run-name" title={props.entry.inputFilename || undefined}>
        {props.entry.inputFilename || 'Rows without a file'}
      </span>
      <span className="run-sub history-what" title={props.title}>
        <span className="history-target">{targetWords(props.entry)}</span>
        {tagWords(props.entry).map((tag) => (
          <span
            key={tag}
            className="history-tag"
            title={
              tag === CALLBACK_TAG
                ? `When it ends, the service was asked to call ${props.entry.callbackUrl}`
                : undefined
            }
          >
            <span className="history-sep">{' · '}</span>
            {tag}
          </span>
        ))}
      </span>
    </td>
  )
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
function RunCell(props: {
  entry: HistoryEntryView
  /** How the run is linked to its follow-ups, in words ('' when it is not). */
  links: string
  byRun: EntriesByRun
  onOpen: (entry: HistoryEntryView) => void
}) {
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
            <span
              className="run-sub"
              title={`Sent again in ${props.entry.retries.map((id) => linkedRunWords(id, props.byRun)).join('; ')}`}
            >
              Rows sent again{' '}
              {props.entry.retries.length === 1 ? 'once' : `${props.entry.retries.length} times`}
            </span>
          )}
          {props.links && (
            <span className="run-sub" title={linkWords(props.entry, props.byRun)}>
              {props.links}
            </span>
          )}
        </>
      ) : (
        <span className="run-sub">{submissionStateText(props.entry)}</span>
      )}
    </td>
  )
}
