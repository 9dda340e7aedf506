/**
 * The `kept_versions` table: for a row sent again (a redo or a retry), the version the user chose
 * to keep, named by the run that made it, per row of the run the row was first sent in.
 */
import * as z from 'zod'
import type { Db } from '../db'
import { readRows } from '../read-row'

const keptRow = z.object({ row_index: z.number().int(), kept_run_id: z.string() })

export class KeptVersionsTable {
  constructor(private readonly db: Db) {}

  /** The choices made for a run's rows: row index → the run whose version is kept. */
  ofRun(historyKey: string, runId: string): Map<number, string> {
    const rows = this.db
      .prepare('SELECT row_index, kept_run_id FROM kept_versions WHERE origin = ? AND run_id = ?')
      .all(historyKey, runId)
    return new Map(readRows(keptRow, rows).map((r) => [r.row_index, r.kept_run_id]))
  }

  /** Records (or replaces) the version kept for one row. */
  put(historyKey: string, runId: string, rowIndex: number, keptRunId: string, chosenAtMs: number) {
    this.db
      .prepare(
        `INSERT INTO kept_versions (origin, run_id, row_index, kept_run_id, chosen_at_ms) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(origin, run_id, row_index) DO UPDATE SET kept_run_id = excluded.kept_run_id, chosen_at_ms = excluded.chosen_at_ms`,
      )
      .run(historyKey, runId, rowIndex, keptRunId, chosenAtMs)
  }
}
