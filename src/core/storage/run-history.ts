/**
 * What this device has seen of runs (runs_seen) and saved of them (downloads), as the history
 * shows it. The journal of submissions itself is Submissions (submissions.ts); this service owns
 * the rest of the history's SQL, so no other module reads these tables.
 */
import { isTerminalStatus, runSummarySchema, type RunSummary } from '../../shared/contract'
import type { Connection } from '../environments/connection'
import type { Db } from './db'

export class History {
  constructor(private readonly db: Db) {}

  /** Remembers the latest summary of runs, so the history can show and search their status. */
  recordRuns(historyKey: string, runs: readonly RunSummary[]) {
    const upsert = this.db.prepare(
      `INSERT INTO runs_seen (origin, run_id, status, summary_json, seen_at_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(origin, run_id) DO UPDATE SET status = excluded.status, summary_json = excluded.summary_json, seen_at_ms = excluded.seen_at_ms`,
    )
    const now = Date.now()
    for (const run of runs) upsert.run(historyKey, run.runId, run.status, JSON.stringify(run), now)
  }

  /** The latest summary of a run the history has seen, or null. */
  seenRun(historyKey: string, runId: string): RunSummary | null {
    if (!runId) return null
    const row = this.db
      .prepare('SELECT summary_json FROM runs_seen WHERE origin = ? AND run_id = ?')
      .get(historyKey, runId) as { summary_json: string } | undefined
    if (!row) return null
    try {
      const parsed = runSummarySchema.safeParse(JSON.parse(row.summary_json))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  /** Runs this device submitted whose last seen status is not terminal, newest first. */
  unfinishedRuns(historyKey: string, limit: number): string[] {
    const rows = this.db
      .prepare(
        `SELECT s.run_id AS runId, r.status AS status FROM submissions s
         LEFT JOIN runs_seen r ON r.origin = s.origin AND r.run_id = s.run_id
         WHERE s.origin = ? AND s.run_id <> '' ORDER BY s.id DESC LIMIT ?`,
      )
      .all(historyKey, limit * 4) as { runId: string; status: string | null }[]
    return rows
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
    return (
      this.db
        .prepare('SELECT 1 FROM submissions WHERE environment = ? AND run_id = ? LIMIT 1')
        .get(environment, runId) !== undefined
    )
  }

  /** The runs that retried the failed rows of this one, oldest first. */
  retriedBy(historyKey: string, runId: string): string[] {
    if (!runId) return []
    return (
      this.db
        .prepare(
          "SELECT run_id FROM submissions WHERE origin = ? AND retry_of_run_id = ? AND run_id <> '' ORDER BY id",
        )
        .all(historyKey, runId) as { run_id: string }[]
    ).map((r) => r.run_id)
  }

  /** How many of the run's outputs are saved on this device. */
  savedFileCount(historyKey: string, runId: string): number {
    if (!runId) return 0
    return (
      this.db
        .prepare(
          "SELECT COUNT(*) AS n FROM downloads WHERE origin = ? AND run_id = ? AND state = 'done'",
        )
        .get(historyKey, runId) as { n: number }
    ).n
  }

  /** Saved outputs of a run, newest first (absolute paths). */
  savedFiles(historyKey: string, runId: string): string[] {
    return (
      this.db
        .prepare(
          "SELECT path FROM downloads WHERE origin = ? AND run_id = ? AND state = 'done' ORDER BY updated_at_ms DESC",
        )
        .all(historyKey, runId) as { path: string }[]
    ).map((r) => r.path)
  }
}
