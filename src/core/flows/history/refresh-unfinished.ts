/**
 * Brings the history's unfinished runs of one environment up to date (status, counters, cost):
 * one request for the newest runs, then the detail of the few it did not cover. Returns how many
 * runs were not found. Failures leave the history as it was.
 */
import type { Connection } from '../../environments/connection'
import type { History } from '../../storage/run-history'

export async function refreshUnfinished(
  history: Pick<History, 'unfinishedRuns' | 'recordRuns'>,
  connection: Connection,
  limit = 20,
  signal?: AbortSignal,
): Promise<number> {
  const wanted = new Set(history.unfinishedRuns(connection.historyKey, limit))
  if (wanted.size === 0) return 0
  try {
    const page = await connection.client.listRuns({ pageSize: 200 }, { signal })
    const found = page.items.filter((run) => wanted.has(run.runId))
    history.recordRuns(connection.historyKey, found)
    for (const run of found) wanted.delete(run.runId)
    for (const runId of [...wanted].slice(0, 5)) {
      const run = await connection.client.runSummary(runId, { signal })
      history.recordRuns(connection.historyKey, [run])
    }
  } catch {
    // Offline or refused: the history shows what it last saw.
  }
  return wanted.size
}

/**
 * The same for every environment the history may name, before History is shown: a run that
 * ended while nobody looked at it is not left "Running". An environment that cannot be reached
 * (or takes longer than `waitMs`) keeps what was last seen; one with no unfinished runs costs no
 * request.
 */
export async function refreshAllUnfinished(
  history: Pick<History, 'unfinishedRuns' | 'recordRuns'>,
  connections: Promise<Connection>[],
  waitMs = 5000,
): Promise<void> {
  const signal = AbortSignal.timeout(waitMs)
  await Promise.all(
    connections.map(async (pending) => {
      const connection = await pending.catch(() => null)
      if (connection) await refreshUnfinished(history, connection, 20, signal)
    }),
  )
}
