/**
 * A row of the `submissions` table as the rest of the engine sees it: the journal entry's type,
 * and the row read from SQLite, parsed (not cast) into it. The SQL is in submissions.ts.
 */
import { amountT, type AmountT } from '../../../shared/format/amounts'
import * as z from 'zod'
import type { RunTarget } from '../../../shared/run-target'
import {
  executionResultSchema,
  runRowsAcceptanceSchema,
  type ExecutionResult,
  type InputRow,
  type RunRowsAcceptance,
} from '../../../shared/contract'
import { parseJsonColumn, readJsonColumn } from '../read-row'

export type SubmissionState = 'pending' | 'sent' | 'accepted' | 'refused'

/** A journaled submission. */
export interface Submission {
  id: number
  clientRequestId: string
  environment: string
  /** Where the submission is filed (Connection.historyKey; the column is called origin). */
  historyKey: string
  targetKind: RunTarget['kind']
  targetId: string
  listingVersionId: string
  callbackUrl: string
  inputFilename: string
  inputCopyPath: string
  /** What makes it "the same submission" (flows/spend/submissions.ts fingerprintOf). */
  fingerprint: string
  /** Where the workbook was when sent, and its SHA-256 then ('' when not known). */
  inputPath: string
  inputSha256: string
  /** The first run of the batch this one continues (the pilot's), '' when none. */
  batchOfRunId: string
  /** Rows in the whole workbook the rows came from (0: not from a workbook, or not known). */
  workbookRows: number
  rowCount: number
  rows: InputRow[]
  rowNumbers: number[]
  /**
   * The SHA-256 of the rows' texts as sent (submission-rows.ts keeps them, one line a row); ''
   * for an entry journaled before, which keeps them as one text (rows_json).
   */
  rowsSha256: string
  /** Fee per task when it was known at sending; null when not (or for templates). */
  taskFixedFeeT: AmountT | null
  /** The estimate shown before sending; null when the cost was not known. */
  estimatedCostT: AmountT | null
  retryOfRunId: string
  /** The run whose set-aside rows this submission sends, fixed ('' when none). */
  followUpOfRunId: string
  /** The batch (the buyer's sheet across its runs) it belongs to, and how it was sent in it. */
  batchId: string
  sendKind: string
  state: SubmissionState
  runId: string
  /** The service's answer (runRows acceptance or execution result) once accepted. */
  answer: RunRowsAcceptance | ExecutionResult | null
  error: string
  attempts: number
  createdAtMs: number
  updatedAtMs: number
}

/**
 * A journaled submission without its rows (the journal keeps them): what its state, its run and
 * its answer are read as, so a send of many parts holds only the part being sent.
 */
export type SubmissionHead = Omit<Submission, 'rows' | 'rowNumbers'>

/**
 * What is journaled before anything is sent; its rows are staged beforehand (submission-rows.ts)
 * and become the entry's as it is written.
 */
export type NewSubmission = Pick<
  Submission,
  | 'clientRequestId'
  | 'rowCount'
  | 'rowsSha256'
  | 'environment'
  | 'historyKey'
  | 'targetKind'
  | 'targetId'
  | 'listingVersionId'
  | 'callbackUrl'
  | 'inputFilename'
  | 'rowNumbers'
  | 'taskFixedFeeT'
  | 'estimatedCostT'
  | 'retryOfRunId'
  | 'followUpOfRunId'
  | 'inputPath'
  | 'inputSha256'
  | 'batchOfRunId'
  | 'workbookRows'
  | 'sendKind'
  | 'createdAtMs'
  | 'fingerprint'
>

export const submissionRow = z.object({
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
  input_path: z.string(),
  fingerprint: z.string(),
  input_sha256: z.string(),
  batch_of_run_id: z.string(),
  workbook_rows: z.number(),
  row_count: z.number(),
  rows_json: z.string(),
  rows_sha256: z.string(),
  row_numbers_json: z.string(),
  task_fee_t: z.number(),
  estimated_cost_t: z.number(),
  retry_of_run_id: z.string(),
  follow_up_of_run_id: z.string(),
  batch_id: z.string(),
  send_kind: z.string(),
  state: z.enum(['pending', 'sent', 'accepted', 'refused']),
  run_id: z.string(),
  answer_json: z.string(),
  error: z.string(),
  attempts: z.number(),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
})
export type SubmissionRow = z.output<typeof submissionRow>

/** One row as journaled: an object (rows can be many thousands: a shape check, not zod). */
function isInputRow(value: unknown): value is InputRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isInputRows(value: unknown): value is InputRow[] {
  return Array.isArray(value) && value.every(isInputRow)
}

/** The rows of an entry journaled before submission_rows, kept as one text. */
export function rowsInColumn(row: SubmissionRow): InputRow[] {
  return readJsonColumn(row.rows_json, isInputRows)
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

/** The entry `row` is, with its rows (read by the table: from where they are kept). */
export function submissionOf(row: SubmissionRow, rows: InputRow[]): Submission {
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
    inputPath: row.input_path,
    fingerprint: row.fingerprint,
    inputSha256: row.input_sha256,
    batchOfRunId: row.batch_of_run_id,
    workbookRows: row.workbook_rows,
    rowCount: row.row_count,
    rows,
    rowNumbers: readJsonColumn(row.row_numbers_json, isRowNumbers),
    rowsSha256: row.rows_sha256,
    taskFixedFeeT: row.task_fee_t < 0 ? null : amountT(row.task_fee_t),
    estimatedCostT: row.estimated_cost_t < 0 ? null : amountT(row.estimated_cost_t),
    retryOfRunId: row.retry_of_run_id,
    followUpOfRunId: row.follow_up_of_run_id,
    batchId: row.batch_id,
    sendKind: row.send_kind,
    state: row.state,
    runId: row.run_id,
    answer: answerOf(row),
    error: row.error,
    attempts: row.attempts,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
  }
}

/** The columns of a submission with its rows left in the table (read as none). */
export const HEAD_COLUMNS = Object.keys(submissionRow.shape)
  .map((column) =>
    column === 'rows_json' || column === 'row_numbers_json' ? `'[]' AS ${column}` : column,
  )
  .join(', ')

/** The columns of a submission with its sheet rows' numbers but its rows left in the table. */
export const SHEET_COLUMNS = Object.keys(submissionRow.shape)
  .map((column) => (column === 'rows_json' ? `'[]' AS ${column}` : column))
  .join(', ')

/** A submission with its rows left in the journal, read a window at a time. */
export type SubmissionSheet = Omit<Submission, 'rows'>

export function submissionSheetOf(row: SubmissionRow): SubmissionSheet {
  const { rows: _rows, ...sheet } = submissionOf(row, [])
  return sheet
}

export function submissionHeadOf(row: SubmissionRow): SubmissionHead {
  const { rows: _rows, rowNumbers: _rowNumbers, ...head } = submissionOf(row, [])
  return head
}
