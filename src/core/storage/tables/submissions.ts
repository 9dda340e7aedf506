/**
 * The `submissions` table: the journal of everything this device sent (or is about to send) to
 * be run and charged. The rules (journal before sending, reuse an unanswered identical one) are
 * the Submissions journal's (flows/spend/submissions.ts); this file only reads and writes rows.
 *
 * Amounts that were not known are stored as -1: the columns predate "unknown". An entry's rows are
 * in submission_rows (submission-rows.ts), or, for one journaled before that table, in rows_json.
 */
import * as z from 'zod'
import type { ExecutionResult, InputRow, RunRowsAcceptance } from '../../../shared/contract'
import type { Db } from '../db'
import { historySearchClause } from './history-search'
import { readJsonColumn, readOptionalRow, readRows, selectRows, unreadableEntry } from '../read-row'
import {
  HEAD_COLUMNS,
  isInputRows,
  SHEET_COLUMNS,
  submissionSheetOf,
  rowsInColumn,
  submissionHeadOf,
  submissionOf,
  submissionRow,
  type NewSubmission,
  type Submission,
  type SubmissionHead,
  type SubmissionRow,
  type SubmissionSheet,
} from './submission-row'
import { SubmissionRowsTable } from './submission-rows'

export type {
  NewSubmission,
  Submission,
  SubmissionHead,
  SubmissionSheet,
  SubmissionState,
} from './submission-row'
const runIdRow = z.object({ run_id: z.string() })
const idRow = z.object({ id: z.number() })
const inputFilenameRow = z.object({ run_id: z.string(), input_filename: z.string() })
const runStatusRow = z.object({ runId: z.string(), status: z.string().nullable() })
const acceptedMarkRow = z.object({ n: z.number(), at: z.number() })
const targetRow = z.object({ origin: z.string(), target_kind: z.string(), target_id: z.string() })

export class SubmissionsTable {
  readonly rows: SubmissionRowsTable

  constructor(private readonly db: Db) {
    this.rows = new SubmissionRowsTable(db)
  }

  private one(row: unknown): Submission | null {
    const read = readOptionalRow(submissionRow, row)
    return read ? submissionOf(read, this.rowsOf(read)) : null
  }

  private many(rows: unknown[]): Submission[] {
    return readRows(submissionRow, rows).map((read) => submissionOf(read, this.rowsOf(read)))
  }

  /** An entry's rows, read whole: from submission_rows, or from rows_json for an older one. */
  private rowsOf(row: SubmissionRow): InputRow[] {
    if (!row.rows_sha256) return rowsInColumn(row)
    const texts = this.rows.texts(row.id, 0, row.row_count)
    if (texts.length !== row.row_count) throw unreadableEntry()
    // Read whole as rows_json was: one text parsed at once is many times faster than each row.
    return readJsonColumn(`[${texts.join(',')}]`, isInputRows)
  }

  // ---- writes -------------------------------------------------------------------------------

  /**
   * Journals a submission as `pending` with the rows staged under `stage` (call inside a
   * transaction, so the entry and its rows are written together); returns its id.
   */
  insertPending(entry: NewSubmission, stage: string): number {
    const result = this.db
      .prepare(
        `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id,
           listing_version_id, fingerprint, input_filename, row_count, rows_json, rows_sha256,
           row_numbers_json, callback_url, task_fee_t, estimated_cost_t, retry_of_run_id,
           follow_up_of_run_id, input_path, input_sha256, batch_of_run_id, workbook_rows, send_kind,
           state, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      )
      .run(
        entry.clientRequestId,
        entry.environment,
        entry.historyKey,
        entry.targetKind,
        entry.targetId,
        entry.listingVersionId,
        entry.fingerprint,
        entry.inputFilename,
        entry.rowCount,
        entry.rowsSha256,
        JSON.stringify(entry.rowNumbers),
        entry.callbackUrl,
        entry.taskFixedFeeT ?? -1,
        entry.estimatedCostT ?? -1,
        entry.retryOfRunId,
        entry.followUpOfRunId,
        entry.inputPath,
        entry.inputSha256,
        entry.batchOfRunId,
        entry.workbookRows,
        entry.sendKind,
        entry.createdAtMs,
        entry.createdAtMs,
      )
    const id = Number(result.lastInsertRowid)
    if (this.rows.adopt(stage, id) !== entry.rowCount)
      throw new Error('the rows staged for a submission are not all there')
    return id
  }

  setInputCopyPath(id: number, path: string) {
    this.db.prepare('UPDATE submissions SET input_copy_path = ? WHERE id = ?').run(path, id)
  }

  /** About to be sent (once more). */
  markSent(id: number, atMs: number) {
    this.db
      .prepare(
        `UPDATE submissions SET state = 'sent', attempts = attempts + 1, updated_at_ms = ? WHERE id = ?`,
      )
      .run(atMs, id)
  }

  /**
   * Accepted with this answer. `onlyIfUnanswered`: an answer found afterwards, which must not
   * replace the real one if it came meanwhile. Whether it was recorded.
   */
  markAccepted(
    id: number,
    answer: RunRowsAcceptance | ExecutionResult,
    atMs: number,
    onlyIfUnanswered = false,
  ): boolean {
    const unanswered = onlyIfUnanswered ? ` AND state IN ('pending', 'sent')` : ''
    const result = this.db
      .prepare(
        `UPDATE submissions SET state = 'accepted', run_id = ?, answer_json = ?, error = '', updated_at_ms = ? WHERE id = ?${unanswered}`,
      )
      .run(answer.runId, JSON.stringify(answer), atMs, id)
    return result.changes > 0
  }

  markRefused(id: number, error: string, atMs: number) {
    this.db
      .prepare(
        `UPDATE submissions SET state = 'refused', error = ?, updated_at_ms = ? WHERE id = ?`,
      )
      .run(error, atMs, id)
  }

  /** Notes why the last attempt got no answer; the state stays as it was. */
  noteError(id: number, error: string, atMs: number) {
    this.db
      .prepare(`UPDATE submissions SET error = ?, updated_at_ms = ? WHERE id = ?`)
      .run(error, atMs, id)
  }

  // ---- reads --------------------------------------------------------------------------------

  byId(id: number): Submission | null {
    return this.one(this.db.prepare('SELECT * FROM submissions WHERE id = ?').get(id))
  }

  /** A submission without its rows (its state, run and answer). */
  headById(id: number): SubmissionHead | null {
    const read = readOptionalRow(
      submissionRow,
      this.db.prepare(`SELECT ${HEAD_COLUMNS} FROM submissions WHERE id = ?`).get(id),
    )
    return read ? submissionHeadOf(read) : null
  }

  /** The oldest submission with this fingerprint still waiting for an answer. */
  firstUnanswered(historyKey: string, fingerprint: string): Submission | null {
    const id = this.firstUnansweredId(historyKey, fingerprint)
    return id === null ? null : this.byId(id)
  }

  /** The id of firstUnanswered, its rows left unread. */
  firstUnansweredId(historyKey: string, fingerprint: string): number | null {
    const sql = `SELECT id FROM submissions WHERE origin = ? AND fingerprint = ? AND state IN ('pending', 'sent')
      ORDER BY id LIMIT 1`
    return selectRows(this.db, idRow, sql, [historyKey, fingerprint])[0]?.id ?? null
  }

  /** The newest accepted submission with this fingerprint. */
  latestAccepted(historyKey: string, fingerprint: string): Submission | null {
    return this.one(
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND fingerprint = ? AND state = 'accepted'
           ORDER BY id DESC LIMIT 1`,
        )
        .get(historyKey, fingerprint),
    )
  }

  /**
   * The parts journaled for the plan whose fingerprint is `of` (fingerprints `<of>:<rows>`),
   * refused ones left out, oldest first.
   */
  partsOf(historyKey: string, of: string): SubmissionHead[] {
    const rows = this.db
      .prepare(
        `SELECT ${HEAD_COLUMNS} FROM submissions WHERE origin = ? AND fingerprint > ? AND fingerprint < ?
           AND state IN ('pending', 'sent', 'accepted') ORDER BY id`,
      )
      .all(historyKey, `${of}:`, `${of};`)
    return readRows(submissionRow, rows).map(submissionHeadOf)
  }

  /** Accepted submissions of one template or listing, newest first. */
  acceptedOfTarget(
    historyKey: string,
    kind: 'template' | 'listing',
    targetId: string,
    limit: number,
  ): Submission[] {
    return this.many(
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND target_kind = ? AND target_id = ? AND state = 'accepted'
           ORDER BY id DESC LIMIT ?`,
        )
        .all(historyKey, kind, targetId, limit),
    )
  }

  /** Every submission of an environment still waiting for an answer, oldest first, its rows unread. */
  unanswered(historyKey: string): SubmissionHead[] {
    const rows = this.db
      .prepare(
        `SELECT ${HEAD_COLUMNS} FROM submissions WHERE origin = ? AND state IN ('pending', 'sent') ORDER BY id`,
      )
      .all(historyKey)
    return readRows(submissionRow, rows).map(submissionHeadOf)
  }

  /** The newest submission that created a run. */
  latestOfRun(historyKey: string, runId: string): Submission | null {
    return this.one(
      this.db
        .prepare(
          'SELECT * FROM submissions WHERE origin = ? AND run_id = ? ORDER BY id DESC LIMIT 1',
        )
        .get(historyKey, runId),
    )
  }

  /** latestOfRun with the rows left in the journal (rowsWindow reads them a window at a time). */
  sheetOfRun(historyKey: string, runId: string): SubmissionSheet | null {
    const sql = `SELECT ${SHEET_COLUMNS} FROM submissions WHERE origin = ? AND run_id = ? ORDER BY id DESC LIMIT 1`
    const read = readOptionalRow(submissionRow, this.db.prepare(sql).get(historyKey, runId))
    return read ? submissionSheetOf(read) : null
  }

  /** An entry's rows `start` (included) to `end` (excluded), fewer past its last. */
  rowsWindow(entry: Pick<SubmissionHead, 'id' | 'rowsSha256'>, start: number, end: number) {
    // An entry journaled before submission_rows keeps its rows as one text: read whole.
    if (!entry.rowsSha256) return this.byId(entry.id)?.rows.slice(start, end) ?? []
    return readJsonColumn(`[${this.rows.texts(entry.id, start, end).join(',')}]`, isInputRows)
  }

  /** How many submissions were accepted, and when the latest was. */
  acceptedCount(): { count: number; latestAtMs: number } {
    const row = readOptionalRow(
      acceptedMarkRow,
      this.db
        .prepare(
          "SELECT COUNT(*) AS n, COALESCE(MAX(updated_at_ms), 0) AS at FROM submissions WHERE state = 'accepted'",
        )
        .get(),
    )
    return { count: row?.n ?? 0, latestAtMs: row?.at ?? 0 }
  }

  /** run id -> input file name, for the given runs that have one. */
  inputFilenames(historyKey: string, runIds: readonly string[]): Map<string, string> {
    if (runIds.length === 0) return new Map()
    const rows = this.db
      .prepare(
        `SELECT run_id, input_filename FROM submissions WHERE origin = ? AND input_filename <> ''
         AND run_id IN (${runIds.map(() => '?').join(', ')})`,
      )
      .all(historyKey, ...runIds)
    return new Map(readRows(inputFilenameRow, rows).map((r) => [r.run_id, r.input_filename]))
  }

  /** Runs sent from here with the status last seen of each (null: never seen), newest first. */
  runsWithLastStatus(
    historyKey: string,
    limit: number,
  ): { runId: string; status: string | null }[] {
    const rows = this.db
      .prepare(
        `SELECT s.run_id AS runId, r.status AS status FROM submissions s
         LEFT JOIN runs_seen r ON r.origin = s.origin AND r.run_id = s.run_id
         WHERE s.origin = ? AND s.run_id <> '' ORDER BY s.id DESC LIMIT ?`,
      )
      .all(historyKey, limit)
    return readRows(runStatusRow, rows)
  }

  /** Whether a run was submitted from here under this environment's name. */
  hasRun(environment: string, runId: string): boolean {
    const row = this.db
      .prepare('SELECT 1 FROM submissions WHERE environment = ? AND run_id = ? LIMIT 1')
      .get(environment, runId)
    return row !== undefined && row !== null
  }

  /** The runs that retried the failed rows of a run, oldest first. */
  retriesOf(historyKey: string, runId: string): string[] {
    return this.runsLinkedBy('retry_of_run_id', historyKey, runId)
  }

  /** The runs that sent the set-aside rows of a run once fixed (its follow-ups), oldest first. */
  followUpsOf(historyKey: string, runId: string): string[] {
    return this.runsLinkedBy('follow_up_of_run_id', historyKey, runId)
  }

  /** The sent runs whose `column` names `runId`, oldest first. */
  private runsLinkedBy(
    column: 'retry_of_run_id' | 'follow_up_of_run_id',
    historyKey: string,
    runId: string,
  ): string[] {
    const sql = `SELECT run_id FROM submissions WHERE origin = ? AND ${column} = ? AND run_id <> '' ORDER BY id`
    return selectRows(this.db, runIdRow, sql, [historyKey, runId]).map((r) => r.run_id)
  }

  /** The runs of the batch that began with `firstRunId` (it first), in the order sent. */
  batchRuns(historyKey: string, firstRunId: string): string[] {
    const rows = this.db
      .prepare(
        `SELECT run_id FROM submissions WHERE origin = ? AND run_id <> '' AND state = 'accepted'
         AND (run_id = ? OR batch_of_run_id = ?) ORDER BY id`,
      )
      .all(historyKey, firstRunId, firstRunId)
    return [...new Set(readRows(runIdRow, rows).map((r) => r.run_id))]
  }

  /** Every template and listing the journal names, once each, the latest sent to first. */
  targets(): Pick<Submission, 'historyKey' | 'targetKind' | 'targetId'>[] {
    const sql = `SELECT origin, target_kind, target_id FROM submissions
      GROUP BY origin, target_kind, target_id ORDER BY MAX(id) DESC`
    return selectRows(this.db, targetRow, sql, []).map((r) => ({
      historyKey: r.origin,
      targetKind: r.target_kind === 'listing' ? 'listing' : 'template',
      targetId: r.target_id,
    }))
  }

  /**
   * The journal newest first, optionally of one environment; `search` matches what History
   * shows (`history-search.ts`), and `alsoTargets` adds the templates and listings whose names
   * matched it (names are not in this table).
   */
  search(query: {
    search?: string | undefined
    environment?: string | undefined
    alsoTargets?: readonly Pick<Submission, 'historyKey' | 'targetKind' | 'targetId'>[] | undefined
    limit: number
  }) {
    const where: string[] = []
    const params: (string | number)[] = []
    if (query.environment) {
      where.push('environment = ?')
      params.push(query.environment)
    }
    if (query.search?.trim()) {
      const targets = query.alsoTargets ?? []
      const clause = historySearchClause(query.search.trim(), {
        sql: ` OR (origin = ? AND target_kind = ? AND target_id = ?)`.repeat(targets.length),
        params: targets.flatMap((t) => [t.historyKey, t.targetKind, t.targetId]),
      })
      where.push(clause.sql)
      params.push(...clause.params)
    }
    const sql = `SELECT * FROM submissions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    params.push(query.limit)
    return this.many(this.db.prepare(sql).all(...params))
  }
}
