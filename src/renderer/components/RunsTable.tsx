import { runWords, savedFolderWords } from '../runs/run-view'
import { memo, useEffect, useMemo, useState } from 'react'
import type { RunSummary } from '../../shared/contract'
import {
  earlierPaces,
  formatUnixTime,
  runCostText,
  runDoneFraction,
  runProgressLines,
  runProgressText,
  type EarlierPace,
  NO_ROW_MARKS,
  type RowMarks,
} from '../../shared/format'
import { PaceNote } from '../runs/RunPace'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { useRunSummaries, useSaves, useStores } from '../stores/context'
import { saveText } from '../stores/saves-store'
import { StatusBadge } from './StatusBadge'
import { ProgressBar } from './ProgressBar'
import { VirtualRow, VirtualTable } from './VirtualTable'
import { choiceOf, type CompareChoice } from '../compare/CompareFromList'
import { useEarlierPaces } from '../runs/use-earlier-paces'

/** What every runs table is, whatever runs it shows. */
const RUNS_TABLE = {
  itemKey: (run: RunSummary) => run.runId,
  rowHeight: 60,
  label: 'Runs table, scrollable',
  tableClassName: 'runs-table',
  /** Ask for the next page when the last rows come within this many rows of the bottom. */
  endMargin: 10,
  columns: ['Run', 'Status', 'Progress', 'Cost', 'Outputs'],
}

/** The runs, virtualized; scrolling near the end asks for older runs, a name opens its detail. */
export function RunsTable(props: {
  runs: RunSummary[]
  unitLabel: string
  environment: string
  onOpen: (runId: string) => void
  onEndReached?: () => void
  /** "Compare runs": while choosing, each row has a box to tick. */
  choice?: CompareChoice
  /** The service cannot be reached: the runs are as last seen (no "time left" is told). */
  lastSeen?: boolean
}) {
  const now = useNow(30_000)
  const marks = useRunSummaries((s) => s.rowMarks[props.environment])
  // How fast earlier runs of the same template went (those listed, and those in this computer's
  // history), for the active runs' time left.
  const kept = useEarlierPaces(props.environment, props.runs)
  const earlier = useMemo(() => {
    const byRun = new Map<string, EarlierPace | null>()
    const active = props.runs.filter((run) => !isTerminalStatus(run.status))
    // Every page of older runs changes the list: with none going, nothing to work out.
    if (active.length === 0) return byRun
    const paceOf = earlierPaces(props.runs, kept)
    for (const run of active) byRun.set(run.runId, paceOf(run))
    return byRun
  }, [props.runs, kept])
  return (
    <VirtualTable
      {...RUNS_TABLE}
      items={props.runs}
      onEndReached={props.onEndReached}
      recycle
      renderRow={(run, place) => (
        <RunRow
          run={run}
          index={place.index}
          now={now}
          earlier={earlier.get(run.runId) ?? null}
          marks={marks?.[run.runId] ?? NO_ROW_MARKS}
          lastSeen={props.lastSeen ?? false}
          unitLabel={props.unitLabel}
          environment={props.environment}
          onOpen={props.onOpen}
          chosen={props.choice ? choiceOf(props.choice, run.runId) : null}
          onChoose={props.choice?.toggle}
        />
      )}
    />
  )
}

/**
 * One run's row. Memoized: scrolling by a little adds a few rows and drops a few (their nodes
 * passed on to the rows that come); the others are not rendered again, which keeps every frame
 * short with thousands of runs.
 */
const RunRow = memo(function RunRow(props: {
  run: RunSummary
  index: number
  now: number
  earlier: EarlierPace | null
  marks: RowMarks
  lastSeen: boolean
  unitLabel: string
  environment: string
  onOpen: (runId: string) => void
  chosen: ReturnType<typeof choiceOf>
  onChoose: ((runId: string) => void) | undefined
}) {
  const { run, now } = props
  const fraction = runDoneFraction(run)
  const name = runWords(run)
  const started = run.startedAtUnix || run.createdAtUnix
  // Worked out once: a date's words are the dearest part of drawing a row that comes into view.
  const when = formatUnixTime(started, now)
  const what =
    [run.templateName || run.market?.skillName, run.inputFilename].filter(Boolean).join(' · ') ||
    'Run'
  const sub = `${what} · ${when}`
  return (
    <VirtualRow
      data-run-id={run.runId}
      {...(props.lastSeen && !isTerminalStatus(run.status) ? { 'data-last-seen': '' } : {})}
      place={{ index: props.index }}
    >
      <td className={props.chosen ? 'run-cell-choosing' : undefined}>
        {props.chosen && (
          <input
            type="checkbox"
            className="run-choose"
            aria-label={`Compare ${name}`}
            checked={props.chosen === 'on'}
            disabled={props.chosen === 'full'}
            onChange={() => props.onChoose?.(run.runId)}
          />
        )}
        <button
          type="button"
          className="run-name link-button"
          title={`Open ${name}`}
          onClick={() => props.onOpen(run.runId)}
        >
          {name}
        </button>
        {/* Cut to the column's width: its whole text is always its tooltip (nothing measured).
            One text node: every element of a row is styled again as the row scrolls in. */}
        <span className="run-sub" title={sub}>
          {sub}
        </span>
      </td>
      <td>
        <StatusBadge status={run.status} run={run} />
        {/* While the service is away the row is dimmed as last seen (the banner says why). */}
        {!props.lastSeen && (
          <PaceNote run={run} earlier={props.earlier} marks={props.marks} nowMs={now} brief />
        )}
      </td>
      <td>
        <ProgressLines run={run} />
        <ProgressBar label={`Progress of ${name}`} fraction={fraction} />
      </td>
      <td className="num">{runCostText(run, props.unitLabel)}</td>
      <td>
        <SaveOutputs run={run} environment={props.environment} />
      </td>
    </VirtualRow>
  )
})

/**
 * What succeeded on one line and what did not on the next, each cut to the column with its
 * whole text as the tooltip: wrapped as one phrase, "failed" fell below the row's fixed height.
 */
function ProgressLines(props: { run: RunSummary }) {
  const [done, rest] = runProgressLines(props.run)
  return (
    <span className="progress-text" title={runProgressText(props.run)}>
      {/* The comma stays, so the cell reads (and is found) as the one phrase it is. */}
      <span className="progress-line">{rest ? `${done}, ` : done}</span>
      {rest && <span className="progress-line">{rest}</span>}
    </span>
  )
}

/** "Save outputs" for a finished run, then how the save went. */
function SaveOutputs(props: { run: RunSummary; environment: string }) {
  const { saves } = useStores()
  const save = useSaves((s) => s.byRun[props.run.runId])
  const finished = isTerminalStatus(props.run.status) && props.run.completedTasks > 0
  if (!finished && !save) return null
  const text = saveText(save)
  const label = save?.state === 'saved' ? 'Save again' : 'Save outputs'
  const button = save?.state !== 'saving' && (
    <button
      type="button"
      className="btn btn-secondary btn-small save-button"
      aria-label={`${label} (${runWords(props.run)})`}
      onClick={() => void saves.getState().save(props.environment, props.run.runId)}
    >
      {label}
    </button>
  )
  // The button alone, in most rows: no box around it to style as rows scroll in.
  if (!text) return button
  return (
    <span className="save-outputs">
      {button}
      {text && (
        <span
          className={`save-text${save?.state === 'failed' ? ' save-failed' : ''}`}
          role="status"
          title={save?.state === 'saved' ? savedFolderWords(save.folder) : undefined}
        >
          {text}
        </span>
      )}
    </span>
  )
}

/** The current time, refreshed now and then so "2 min ago" stays true. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs)
    return () => window.clearInterval(timer)
  }, [intervalMs])
  return now
}
