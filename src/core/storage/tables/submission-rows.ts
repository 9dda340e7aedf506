/**
 * The `submission_rows` table: a journaled submission's rows, one line each, in the JSON text
 * they are sent as, so a part of 10,000 rows is written, sent and sent again a few rows at a
 * time and never held as one text.
 *
 * Rows to be journaled are first staged, a few at a time, in a temporary table of this
 * connection (`staged_rows`), then moved under their submission in the transaction that
 * journals it (submissions.ts insertPending): the entry and its rows appear together or not at
 * all, and a crash while staging leaves nothing behind, since a temporary table ends with its
 * connection. Staging writes only that table, so it takes no lock on the history file.
 */
import * as z from 'zod'
import type { Db } from '../db'
import { selectRow, unreadableEntry } from '../read-row'

const countRow = z.object({ n: z.number() })

export class SubmissionRowsTable {
  private staging = false

  constructor(private readonly db: Db) {}

  /** Rows `start`, `start + 1`… of the stage `key`, as texts, in one short transaction. */
  stage(key: string, start: number, texts: readonly string[]): void {
    if (!this.staging) {
      this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS staged_rows (
        stage TEXT NOT NULL, row_index INTEGER NOT NULL, row_json TEXT NOT NULL,
        PRIMARY KEY (stage, row_index))`)
      this.staging = true
    }
    const insert = this.db.prepare(
      'INSERT INTO temp.staged_rows (stage, row_index, row_json) VALUES (?, ?, ?)',
    )
    this.db.exec('BEGIN')
    try {
      texts.forEach((text, i) => insert.run(key, start + i, text))
      this.db.exec('COMMIT')
    } catch (error) {
      this.db.exec('ROLLBACK')
      throw error
    }
  }

  /** The stage's rows let go of (journaled, or not to be). */
  dropStage(key: string): void {
    if (this.staging) this.db.prepare('DELETE FROM temp.staged_rows WHERE stage = ?').run(key)
  }

  /**
   * The stage's rows made the submission's (call inside the transaction that journals it), the
   * stage emptied; how many rows moved.
   */
  adopt(key: string, submissionId: number): number {
    if (!this.staging) return 0
    const moved = this.db
      .prepare(
        `INSERT INTO submission_rows (submission_id, row_index, row_json)
         SELECT ?, row_index, row_json FROM temp.staged_rows WHERE stage = ? ORDER BY row_index`,
      )
      .run(submissionId, key).changes
    this.dropStage(key)
    return moved
  }

  /** The texts of rows `start` (included) to `end` (excluded); fewer where rows are missing. */
  texts(submissionId: number, start: number, end: number): string[] {
    const rows = this.db
      .prepare(
        `SELECT row_json FROM submission_rows WHERE submission_id = ? AND row_index >= ? AND row_index < ?
         ORDER BY row_index`,
      )
      .all(submissionId, start, end)
    // Thousands of rows: a type check each, not a walk through zod.
    return rows.map((row) => {
      const text = (row as { row_json?: unknown } | null)?.row_json
      if (typeof text !== 'string') throw unreadableEntry()
      return text
    })
  }

  /** How many rows the submission has here. */
  count(submissionId: number): number {
    const sql = 'SELECT COUNT(*) AS n FROM submission_rows WHERE submission_id = ?'
    return selectRow(this.db, countRow, sql, [submissionId])?.n ?? 0
  }
}
