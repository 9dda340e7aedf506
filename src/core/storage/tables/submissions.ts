/**
 * The `submissions` table: the journal of everything this device sent (or is about to send) to
 * be run and charged. The rules (journal before sending, reuse an unanswered identical one) are
 * the Submissions journal's (flows/spend/submissions.ts); this file only reads and writes rows.
 *
 * Amounts that were not known are stored as -1: the columns predate "unknown".
 */
import { z } from 'zod'
import {
  executionResultSchema,
  runRowsAcceptanceSchema,
  type ExecutionResult,
  type InputRow,
  type RunRowsAcceptance,
} from '../../../shared/contract'
import type { Db } from '../db'
import { parseJsonColumn, readJsonColumn, readOptionalRow, readRows } from '../read-row'

export type SubmissionState = 'pending' | 'sent' | 'accepted' | 'refused'

/** A journaled submission. */
export interface Submission {
  id: number
  clientRequestId: string
  environment: string
  /** Where the submission is filed (Connection.historyKey; the column is called origin). */
  historyKey: string
  targetKind: 'template' | 'listing'
  targetId: string
  listingVersionId: string
  callbackUrl: string
  inputFilename: string
  inputCopyPath: string
  rowCount: number
  rows: InputRow[]
  rowNumbers: number[]
  /** Fee per task when it was known at sending; null when not (or for templates). */
  taskFixedFeeT: number | null
  /** The estimate shown before sending; null when the cost was not known. */
  estimatedCostT: number | null
  retryOfRunId: string
  state: SubmissionState
  runId: string
  /** The service's answer (runRows acceptance or execution result) once accepted. */
  answer: RunRowsAcceptance | ExecutionResult | null
  error: string
  attempts: number
  createdAtMs: number
  updatedAtMs: number
}

/** What is journaled before anything is sent. */
export type NewSubmission = Pick<
  Submission,
  | 'clientRequestId'
  | 'environment'
  | 'historyKey'
  | 'targetKind'
  | 'targetId'
  | 'listingVersionId'
  | 'callbackUrl'
  | 'inputFilename'
  | 'rows'
  | 'rowNumbers'
  | 'taskFixedFeeT'
  | 'estimatedCostT'
  | 'retryOfRunId'
  | 'createdAtMs'
> & { fingerprint: string }

const submissionRow = z.object({
  id: z.number(),
  client_request_id: z.string(),
  environment: z.string(),
  origin: z.string(),
  target_kind: z.string(),
  target_id: z.string(),
  listing_version_id: z.string(),
  callback_url: z.string(),
  input_filename: z.string(),
  input_copy_path: z.string(),
  row_count: z.number(),
  rows_json: z.string(),
  row_numbers_json: z.string(),
  task_fee_t: z.number(),
  estimated_cost_t: z.number(),
  retry_of_run_id: z.string(),
  state: z.enum(['pending', 'sent', 'accepted', 'refused']),
  run_id: z.string(),
  answer_json: z.string(),
  error: z.string(),
  attempts: z.number(),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
})
type SubmissionRow = z.output<typeof submissionRow>

const runIdRow = z.object({ run_id: z.string() })
const inputFilenameRow = z.object({ run_id: z.string(), input_filename: z.string() })
const runStatusRow = z.object({ runId: z.string(), status: z.string().nullable() })
const acceptedMarkRow = z.object({ n: z.number(), at: z.number() })

// Rows can be many thousands: a shape check, not a copy through zod.
function isInputRows(value: unknown): value is InputRow[] {
  return (
    Array.isArray(value) &&
    value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row))
  )
}

function isRowNumbers(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => Number.isInteger(n))
}

function answerOf(row: SubmissionRow): RunRowsAcceptance | ExecutionResult | null {
  if (!row.answer_json) return null
  const schema = row.target_kind === 'listing' ? executionResultSchema : runRowsAcceptanceSchema
  const parsed = schema.safeParse(parseJsonColumn(row.answer_json))
  return parsed.success ? parsed.data : null
}

function submissionOf(row: SubmissionRow): Submission {
  return {
    id: row.id,
    clientRequestId: row.client_request_id,
    environment: row.environment,
    historyKey: row.origin,
    targetKind: row.target_kind === 'listing' ? 'listing' : 'template',
    targetId: row.target_id,
    listingVersionId: row.listing_version_id,
    callbackUrl: row.callback_url,
    inputFilename: row.input_filename,
    inputCopyPath: row.input_copy_path,
    rowCount: row.row_count,
    rows: readJsonColumn(row.rows_json, isInputRows),
    rowNumbers: readJsonColumn(row.row_numbers_json, isRowNumbers),
    taskFixedFeeT: row.task_fee_t < 0 ? null : row.task_fee_t,
    estimatedCostT: row.estimated_cost_t < 0 ? null : row.estimated_cost_t,
    retryOfRunId: row.retry_of_run_id,
    state: row.state,
    runId: row.run_id,
    answer: answerOf(row),
    error: row.error,
    attempts: row.attempts,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
  }
}

export class SubmissionsTable {
  constructor(private readonly db: Db) {}

  private one(row: unknown): Submission | null {
    const read = readOptionalRow(submissionRow, row)
    return read ? submissionOf(read) : null
  }

  private many(rows: unknown[]): Submission[] {
    return readRows(submissionRow, rows).map(submissionOf)
  }

  // ---- writes -------------------------------------------------------------------------------

  /** Journals a submission as `pending`; returns its id. */
  insertPending(entry: NewSubmission): number {
    const result = this.db
      .prepare(
        `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id,
           listing_version_id, fingerprint, input_filename, row_count, rows_json, row_numbers_json,
           callback_url, task_fee_t, estimated_cost_t, retry_of_run_id, state, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
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
        entry.rows.length,
        JSON.stringify(entry.rows),
        JSON.stringify(entry.rowNumbers),
        entry.callbackUrl,
        entry.taskFixedFeeT ?? -1,
        entry.estimatedCostT ?? -1,
        entry.retryOfRunId,
        entry.createdAtMs,
        entry.createdAtMs,
      )
    return Number(result.lastInsertRowid)
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

  /** The id of the oldest submission with this fingerprint still waiting for an answer. */
  firstUnansweredId(historyKey: string, fingerprint: string): number | null {
    return this.firstUnanswered(historyKey, fingerprint)?.id ?? null
  }

  /** The oldest submission with this fingerprint still waiting for an answer. */
  firstUnanswered(historyKey: string, fingerprint: string): Submission | null {
    return this.one(
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND fingerprint = ? AND state IN ('pending', 'sent')
           ORDER BY id LIMIT 1`,
        )
        .get(historyKey, fingerprint),
    )
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

  /** Every submission of an environment still waiting for an answer, oldest first. */
  unanswered(historyKey: string): Submission[] {
    return this.many(
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND state IN ('pending', 'sent') ORDER BY id`,
        )
        .all(historyKey),
    )
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
    const rows = this.db
      .prepare(
        "SELECT run_id FROM submissions WHERE origin = ? AND retry_of_run_id = ? AND run_id <> '' ORDER BY id",
      )
      .all(historyKey, runId)
    return readRows(runIdRow, rows).map((r) => r.run_id)
  }

  /**
   * The journal newest first, optionally of one environment; `search` matches file name,
   * template or listing, run id, state, client request id, date (YYYY-MM-DD) and the run's
   * last seen status alike.
   */
  search(query: { search?: string | undefined; environment?: string | undefined; limit: number }) {
    const where: string[] = []
    const params: (string | number)[] = []
    if (query.environment) {
      where.push('environment = ?')
      params.push(query.environment)
    }
    if (query.search?.trim()) {
      const like = `%${query.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      where.push(
        `(input_filename LIKE ? ESCAPE '\\' OR target_id LIKE ? ESCAPE '\\' OR run_id LIKE ? ESCAPE '\\'
          OR state LIKE ? ESCAPE '\\' OR client_request_id LIKE ? ESCAPE '\\'
          OR date(created_at_ms / 1000, 'unixepoch') LIKE ? ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM runs_seen r WHERE r.origin = submissions.origin AND r.run_id = submissions.run_id AND r.status LIKE ? ESCAPE '\\'))`,
      )
      params.push(like, like, like, like, like, like, like)
    }
    const sql = `SELECT * FROM submissions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    params.push(query.limit)
    return this.many(this.db.prepare(sql).all(...params))
  }
}
