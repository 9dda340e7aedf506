import { createContext, useContext, useState } from 'react'
import type { BatchView, RunOverview } from '../../shared/bridge'
import { useLatestAnswer } from '../components/use-latest-answer'
import { useStores } from '../stores/context'

/** The batch of the run shown (its sheet across its runs), null while unknown or when none. */
export const RunBatch = createContext<BatchView | null>(null)

/** The shown run's batch, asked again when the run's counts change (a row succeeded elsewhere). */
export function useRunBatchAnswer(overview: RunOverview | null): BatchView | null {
  const { bridge } = useStores()
  const [batch, setBatch] = useState<BatchView | null>(null)
  const environment = overview?.environment ?? ''
  const run = overview?.detail.run
  const batchId = overview?.batchId ?? ''
  useLatestAnswer(
    () => {
      if (!batchId || !run) return null
      return bridge.api.getBatch({ environment, runId: run.runId }).catch(() => null)
    },
    setBatch,
    [bridge, environment, run?.runId, batchId, run?.status, run?.completedTasks, run?.failedTasks],
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

/** "Part of <file> — <summary>": the run's sheet across its runs, a click away. */
export function BatchLink(props: { runId: string }) {
  const { nav } = useStores()
  const batch = useContext(RunBatch)
  if (!batch) return null
  return (
    <p className="run-links batch-link">
      Part of{' '}
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
  )
}
