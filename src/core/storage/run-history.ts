/**
 * What this device has seen of runs (runs_seen) and saved of them (downloads), as the history
 * shows it, read together with the journal of what it sent. The journal's own rules are the
 * Submissions journal's (flows/spend/submissions.ts).
 */
import { isTerminalStatus, type RunSummary } from '../../shared/contract'
import type { Connection } from '../environments/connection'
import type { Db } from './db'
import { DownloadsTable } from './tables/downloads'
import { RunsSeenTable } from './tables/runs-seen'
import { SubmissionsTable } from './tables/submissions'

export class History {
  private readonly runsSeen: RunsSeenTable
  private readonly submissions: SubmissionsTable
  private readonly downloads: DownloadsTable

  constructor(db: Db) {
    this.runsSeen = new RunsSeenTable(db)
    this.submissions = new SubmissionsTable(db)
    this.downloads = new DownloadsTable(db)
  }

  /** Remembers the latest summary of runs, so the history can show and search their status. */
  recordRuns(historyKey: string, runs: readonly RunSummary[]) {
    this.runsSeen.upsert(historyKey, runs, Date.now())
  }

  /** The latest summary of a run the history has seen, or null. */
  seenRun(historyKey: string, runId: string): RunSummary | null {
    if (!runId) return null
    return this.runsSeen.summary(historyKey, runId)
  }

  /** Runs this device submitted whose last seen status is not terminal, newest first. */
  unfinishedRuns(historyKey: string, limit: number): string[] {
    // Finished runs are dropped below, so more are read than are wanted.
    return this.submissions
      .runsWithLastStatus(historyKey, limit * 4)
      .filter((r) => r.status === null || !isTerminalStatus(r.status))
      .slice(0, limit)
      .map((r) => r.runId)
  }

  /**
   * Brings the history's unfinished runs of one environment up to date (status, counters, cost):
   * one request for the newest runs, then the detail of the few it did not cover. Returns how
   * many runs were looked at. Failures leave the history as it was.
   */
  async followUnfinished(connection: Connection, limit = 20, signal?: AbortSignal) {
    const wanted = new Set(this.unfinishedRuns(connection.historyKey, limit))
    if (wanted.size === 0) return 0
    try {
      const page = await connection.client.listRuns({ pageSize: 200 }, { signal })
      const found = page.items.filter((run) => wanted.has(run.runId))
      this.recordRuns(connection.historyKey, found)
      for (const run of found) wanted.delete(run.runId)
      for (const runId of [...wanted].slice(0, 5)) {
        const detail = await connection.client.run(runId, { signal })
        this.recordRuns(connection.historyKey, [detail.run])
      }
    } catch {
      // Offline or refused: the history shows what it last saw.
    }
    return wanted.size
  }

  /** Whether a run was submitted from this device under this environment's name. */
  isOwnRun(environment: string, runId: string): boolean {
    return this.submissions.hasRun(environment, runId)
  }

  /** The runs that retried the failed rows of this one, oldest first. */
  retriedBy(historyKey: string, runId: string): string[] {
    if (!runId) return []
    return this.submissions.retriesOf(historyKey, runId)
  }

  /** How many of the run's outputs are saved on this device. */
  savedFileCount(historyKey: string, runId: string): number {
    if (!runId) return 0
    return this.downloads.finishedCount(historyKey, runId)
  }

  /** Saved outputs of a run, newest first (absolute paths). */
  savedFiles(historyKey: string, runId: string): string[] {
    return this.downloads.finishedPathsNewestFirst(historyKey, runId)
  }
}
