/**
 * Run + watch, once for every front door: follows one run until it ends (asking again only
 * while it is active, less often while nothing changes), records what it sees in the history,
 * and returns the run's final detail.
 */
import type { RunDetail, RunSummary } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { Engine } from '../../engine'

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

export async function followRunToEnd(
  engine: Engine,
  connection: Connection,
  runId: string,
  options: FollowRunOptions = {},
): Promise<RunDetail> {
  const watcher = engine.watcher(connection, {
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
  engine.recordRuns(connection.historyKey, [detail.run])
  return detail
}
