/** The `runs_seen` table: the latest summary of each run this device has seen. */
import * as z from 'zod'
import { runSummarySchema, type RunSummary } from '../../../shared/contract'
import type { Db } from '../db'
import { parseJsonColumn, readOptionalRow, readRows } from '../read-row'

const summaryRow = z.object({ summary_json: z.string() })

export class RunsSeenTable {
  constructor(private readonly db: Db) {}

  /**
   * Saves the summaries, replacing what was seen of the same runs before: one statement for the
   * list (read there by json_each), so one commit. A statement per run made a commit per run, 50
   * for each page of the runs list; the window scrolling 10,000 runs waited on them.
   */
  upsert(historyKey: string, runs: readonly RunSummary[], seenAtMs: number) {
    if (runs.length === 0) return
    const rows = runs.map((run) => [run.runId, run.status, JSON.stringify(run)])
    this.db
      .prepare(
        `INSERT INTO runs_seen (origin, run_id, status, summary_json, seen_at_ms)
         SELECT ?, value->>0, value->>1, value->>2, ? FROM json_each(?) WHERE true
         ON CONFLICT(origin, run_id) DO UPDATE SET status = excluded.status,
           summary_json = excluded.summary_json, seen_at_ms = excluded.seen_at_ms`,
      )
      .run(historyKey, seenAtMs, JSON.stringify(rows))
  }

  /** The latest summary seen of a run, or null (also when it no longer reads as a summary). */
  summary(historyKey: string, runId: string): RunSummary | null {
    const row = readOptionalRow(
      summaryRow,
      this.db
        .prepare('SELECT summary_json FROM runs_seen WHERE origin = ? AND run_id = ?')
        .get(historyKey, runId),
    )
    if (!row) return null
    const parsed = runSummarySchema.safeParse(parseJsonColumn(row.summary_json))
    return parsed.success ? parsed.data : null
  }

  /**
   * The newest `limit` finished runs seen of a template (by its key) or a listing (by its id),
   * newest first; a summary that no longer reads as one is left out.
   */
  finishedOf(
    historyKey: string,
    target: { templateKey: string } | { listingId: string },
    limit: number,
  ): RunSummary[] {
    const [path, value] =
      'listingId' in target
        ? ['$.market.listingId', target.listingId]
        : ['$.templateKey', target.templateKey]
    const rows = this.db
      .prepare(
        `SELECT summary_json FROM runs_seen
         WHERE origin = ? AND status IN ('succeeded', 'failed', 'cancelled') AND json_extract(summary_json, ?) = ?
         ORDER BY seen_at_ms DESC LIMIT ?`,
      )
      .all(historyKey, path, value, limit)
    return readRows(summaryRow, rows).flatMap((row) => {
      const parsed = runSummarySchema.safeParse(parseJsonColumn(row.summary_json))
      return parsed.success ? [parsed.data] : []
    })
  }
}
