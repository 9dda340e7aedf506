/**
 * Run + watch, once for every front door: watches one run until it ends (asking again only
 * while it is active, less often while nothing changes), records what it sees in the history,
 * and returns the run's final detail.
 */
import type { RunDetail, RunSummary } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { History } from '../../storage/run-history'
import { isOutage, type Outage, type RunWatcher, type RunWatcherOptions } from './run-watcher'
import { defined } from '../../../shared/defined'

export interface WatchRunOptions {
  /** The run changed; `recent` are the newest runs of the account (for the pace of earlier runs). */
  onProgress?: (run: RunSummary, recent: readonly RunSummary[]) => void
  /**
   * A look that failed because the service is away; watching goes on, asking every retryMs.
   * Any other failure (a refused credential, a run that is not there) ends the watch.
   */
  onUnreachable?: (outage: Outage) => void
  /** The service answers again after an outage. */
  onReachable?: () => void
  /** While the service is away, ask again this often (ms, default 30 s). */
  outageRetryMs?: number
  /** Resolves when the caller stops watching (the run goes on); then this rejects with its value. */
  stop?: Promise<unknown>
  signal?: AbortSignal
  minMs?: number
  maxMs?: number
}

/** What watching a run needs: a watcher of the connection's runs, and the history. */
export interface WatchServices {
  history: Pick<History, 'recordRuns'>
  watcher(connection: Connection, options?: RunWatcherOptions): RunWatcher
}

export async function watchRunToEnd(
  services: WatchServices,
  connection: Connection,
  runId: string,
  options: WatchRunOptions = {},
): Promise<RunDetail> {
  const watcher = services.watcher(connection, {
    minMs: options.minMs ?? 500,
    maxMs: options.maxMs ?? 5000,
    ...defined({ outageRetryMs: options.outageRetryMs || undefined }),
  })
  const { onProgress, onUnreachable, onReachable } = options
  if (onProgress) watcher.on('progress', (run) => onProgress(run, watcher.newestRuns))
  if (onUnreachable) watcher.on('unreachable', onUnreachable)
  if (onReachable) watcher.on('reachable', () => onReachable())
  const failed = new Promise<never>((_, reject) => {
    watcher.on('error', (error) => {
      if (!isOutage(error)) reject(error)
    })
  })
  try {
    const ended = watcher.waitFor(runId)
    const stopped = options.stop?.then((reason) => {
      throw reason
    })
    await Promise.race([ended, failed, ...(stopped ? [stopped] : [])])
  } finally {
    watcher.stop()
  }
  const detail = await connection.client.run(runId, { signal: options.signal })
  services.history.recordRuns(connection.historyKey, [detail.run])
  return detail
}
