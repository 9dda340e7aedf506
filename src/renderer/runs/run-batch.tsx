import { createContext, useContext, useState } from 'react'
import type { BatchView, RunOverview } from '../../shared/bridge'
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { plural } from '../../shared/format/amounts'
import { useLatestAnswer } from '../components/use-latest-answer'
import { useRunSummaries, useStores } from '../stores/context'
import { summaryOf, type RunSummariesData } from '../stores/run-summaries-store'

/** The batch of the run shown (its sheet across its runs), null while unknown or when none. */
export const RunBatch = createContext<BatchView | null>(null)

/** The other parts of the batch the shown run is a part of, in the order sent (none: not a part). */
function otherParts(batch: BatchView | null, runId: string) {
  const parts = batch?.runs.filter((r) => r.kind === 'part') ?? []
  const at = parts.findIndex((r) => r.runId === runId)
  return at < 0 ? { at, parts: [] } : { at, parts }
}

/** What the window knows of the other parts' progress, as one text that changes with it. */
function partsProgress(state: RunSummariesData, batch: BatchView | null, runId: string): string {
  const { parts } = otherParts(batch, runId)
  return parts
    .filter((p) => p.runId !== runId)
    .map((p) => {
      const run = summaryOf(state, batch!.environment, p.runId)
      return run ? `${p.runId}:${run.status}:${run.completedTasks}:${run.failedTasks}` : p.runId
    })
    .join(' ')
}

/**
 * The shown run's batch, asked again when the run's counts change (a row succeeded elsewhere),
 * and, for a part, when another part's do: the batch's words follow every part to its end.
 */
export function useRunBatchAnswer(overview: RunOverview | null): BatchView | null {
  const { bridge } = useStores()
  const [batch, setBatch] = useState<BatchView | null>(null)
  const environment = overview?.environment ?? ''
  const run = overview?.detail.run
  const batchId = overview?.batchId ?? ''
  const others = useRunSummaries((s) => partsProgress(s, batch, run?.runId ?? ''))
  useLatestAnswer(
    () => {
      if (!batchId || !run) return null
      return bridge.api.getBatch({ environment, runId: run.runId }).catch(() => null)
    },
    setBatch,
    [
      bridge,
      environment,
      run?.runId,
      batchId,
      run?.status,
      run?.completedTasks,
      run?.failedTasks,
      others,
    ],
  )
  return batch && batch.batchId === batchId ? batch : null
}

/**
 * How many of the shown run's failed rows are still to retry: those whose latest version in the
 * batch failed too (a row sent again since, and succeeded or still running, is not retried).
 * Without a batch, every failed row of the run; null while the batch's failed rows are asked.
 */
export function useFailedRowsLeft(overview: RunOverview): number | null {
  const { bridge } = useStores()
  const batch = useContext(RunBatch)
  const [answer, setAnswer] = useState<{ batch: BatchView; left: number } | null>(null)
  const { detail, rowNumbers, environment } = overview
  const failed = detail.run.failedTasks
  useLatestAnswer(
    () => {
      if (!batch || failed === 0) return null
      // A big run's rows stay in the engine: its failed rows are told by the batch's counts.
      if (overview.rows)
        return Promise.resolve({ batch, left: Math.min(failed, batch.counts.failed) })
      const sheetRows = detail.tasks
        .filter((t) => t.status === 'failed')
        .map((t) => rowNumbers?.[t.sourceRowIndex] ?? t.sourceRowIndex + 1)
      // The batch's failed rows, in one window: a batch with more is told by its counts alone.
      return bridge.api
        .getBatchRows({
          environment,
          batchId: batch.batchId,
          filter: 'failed',
          from: 0,
          count: 2000,
        })
        .then((window) => {
          if (window.total > window.rows.length)
            return { batch, left: Math.min(failed, batch.counts.failed) }
          const stillFailed = new Set(window.rows.map((r) => r.sheetRow))
          return { batch, left: sheetRows.filter((n) => stillFailed.has(n)).length }
        })
        .catch(() => ({ batch, left: Math.min(failed, batch.counts.failed) }))
    },
    setAnswer,
    [bridge, environment, batch, detail.tasks, overview.rows, rowNumbers, failed],
  )
  if (!batch) return failed
  return answer?.batch === batch ? answer.left : null
}

/**
 * "Part of <file> — <summary>": the run's sheet across its runs, a click away. A run sent as one
 * of several parts says which, and once it has ended, the next part still under way.
 */
export function PartOfBatch(props: { runId: string }) {
  const { nav } = useStores()
  const batch = useContext(RunBatch)
  const { at, parts } = otherParts(batch, props.runId)
  if (!batch) return null
  return (
    <>
      <p className="run-links batch-link">
        {at >= 0 ? `Part ${at + 1} of ${parts.length} of ` : 'Part of '}
        <button
          type="button"
          className="link-button"
          data-batch-id={batch.batchId}
          onClick={() => nav.getState().openBatch(props.runId)}
        >
          {batch.fileName || 'its sheet'}
        </button>{' '}
        — {batch.summary}
      </p>
      {at >= 0 && <NextPart batch={batch} runId={props.runId} />}
    </>
  )
}

/** Once the shown part has ended: the first other part still under way, and its progress. */
function NextPart(props: { batch: BatchView; runId: string }) {
  const { nav } = useStores()
  const { batch, runId } = props
  const { parts } = otherParts(batch, runId)
  const shown = useRunSummaries((s) => summaryOf(s, batch.environment, runId))
  // The first other part not known to have ended (a plain id, so the read stays the same).
  const nextId = useRunSummaries((s) => {
    const open = parts.find((part) => {
      if (part.runId === runId) return false
      const run = summaryOf(s, batch.environment, part.runId)
      return !run || !isTerminalStatus(run.status)
    })
    return open?.runId ?? null
  })
  const nextRun = useRunSummaries((s) => summaryOf(s, batch.environment, nextId))
  const next = nextId
    ? { number: parts.findIndex((p) => p.runId === nextId) + 1, runId: nextId, run: nextRun }
    : null
  if (!shown || !isTerminalStatus(shown.status) || !next) return null
  return (
    <p className="run-links next-part" role="status" data-testid="next-part">
      Part {next.number} is still under way{next.run ? `: ${rowsDone(next.run)}` : ''}.{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => nav.getState().openRun(next.runId)}
      >
        Show part {next.number}
      </button>
    </p>
  )
}

/** "3 of 10 rows done". */
function rowsDone(run: RunSummary): string {
  const done = run.completedTasks + run.failedTasks
  return `${done.toLocaleString('en-US')} of ${plural(run.totalTasks, 'row')} done`
}
