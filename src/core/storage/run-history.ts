/**
 * What this device has seen of runs (runs_seen), saved of them (downloads) and chose to keep of
 * rows sent again (kept_versions), as the history shows it, read together with the journal of what it sent. The journal's own rules are the
 * Submissions journal's (flows/spend/submissions.ts).
 */
import { dirname } from 'node:path'
import { isTerminalStatus, type RunSummary } from '../../shared/contract'
import type { Db } from './db'
import { DownloadsTable } from './tables/downloads'
import { KeptVersionsTable } from './tables/kept-versions'
import { RunsSeenTable } from './tables/runs-seen'
import { SubmissionsTable } from './tables/submissions'

export class History {
  private readonly runsSeen: RunsSeenTable
  private readonly submissions: SubmissionsTable
  private readonly downloads: DownloadsTable
  private readonly kept: KeptVersionsTable

  constructor(db: Db) {
    this.kept = new KeptVersionsTable(db)
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

  /** The newest finished runs of a template or listing this device has seen (for paces). */
  finishedRunsOf(
    historyKey: string,
    target: { templateKey: string } | { listingId: string },
    limit: number,
  ): RunSummary[] {
    return this.runsSeen.finishedOf(historyKey, target, limit)
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

  /** Whether a run was submitted from this device under this environment's name. */
  isOwnRun(environment: string, runId: string): boolean {
    return this.submissions.hasRun(environment, runId)
  }

  /** The runs that retried the failed rows of this one, oldest first. */
  retriedBy(historyKey: string, runId: string): string[] {
    if (!runId) return []
    return this.submissions.retriesOf(historyKey, runId)
  }

  /** The versions the user chose to keep of a run's re-sent rows: row index → the run that made it. */
  keptVersions(historyKey: string, runId: string): Map<number, string> {
    return this.kept.ofRun(historyKey, runId)
  }

  /** Keeps the version `keptRunId` made of row `rowIndex` of `runId` (the first run). */
  keepVersion(historyKey: string, runId: string, rowIndex: number, keptRunId: string) {
    this.kept.put(historyKey, runId, rowIndex, keptRunId, Date.now())
  }

  /** How many of the run's outputs are saved on this device. */
  savedFileCount(historyKey: string, runId: string): number {
    if (!runId) return 0
    return this.downloads.finishedCount(historyKey, runId)
  }

  /** Where the outputs of each of `runIds` were saved on this computer, and how many files. */
  savedOutputsOf(historyKey: string, runIds: readonly string[]) {
    return this.downloads.finishedByRun(historyKey, runIds).map((saved) => ({
      runId: saved.runId,
      files: saved.files,
      // Files sit in <run folder>/<row folder>/<file>.
      folder: dirname(dirname(saved.path)),
    }))
  }
}
