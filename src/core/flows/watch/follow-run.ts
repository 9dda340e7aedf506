/**
 * Run + watch, once for every front door: follows one run until it ends (asking again only
 * while it is active, less often while nothing changes), records what it sees in the history,
 * and returns the run's final detail.
 */
import type { RunDetail, RunSummary } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { History } from '../../storage/run-history'
import type { RunWatcher, RunWatcherOptions } from './run-watcher'

export interface FollowRunOptions {
  onProgress?: (run: RunSummary) => void
  /** A look that failed; following goes on. */
  onError?: (error: unknown) => void
  /** Resolves when the caller stops watching (the run goes on); then this rejects with its value. */
  stop?: Promise<unknown>
  signal?: AbortSignal
  minMs?: number
  maxMs?: number
}

/** What following a run needs: a watcher of the connection's runs, and the history. */
export interface FollowServices {
  history: Pick<History, 'recordRuns'>
  watcher(connection: Connection, options?: RunWatcherOptions): RunWatcher
}

export async function followRunToEnd(
  services: FollowServices,
  connection: Connection,
  runId: string,
  options: FollowRunOptions = {},
): Promise<RunDetail> {
  const watcher = services.watcher(connection, {
    minMs: options.minMs ?? 500,
    maxMs: options.maxMs ?? 5000,
  })
  if (options.onProgress) watcher.on('progress', options.onProgress)
  if (options.onError) watcher.on('error', options.onError)
  try {
    const ended = watcher.waitFor(runId)
    await (options.stop
      ? Promise.race([
          ended,
          options.stop.then((reason) => {
            throw reason
          }),
        ])
      : ended)
  } finally {
    watcher.stop()
  }
  const detail = await connection.client.run(runId, { signal: options.signal })
  services.history.recordRuns(connection.historyKey, [detail.run])
  return detail
}
