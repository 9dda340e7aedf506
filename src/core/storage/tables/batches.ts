/**
 * The batch tables: `batches` (a buyer's sheet sent to one target), `batch_set_aside` (its rows
 * set aside with their problems), `run_outcomes` (each run's per-row outcome once seen, one
 * letter a row) and the batch columns of `submissions` (`batch_id`, `send_kind`). The rules
 * (which rows a send may take, what a row's state is) are the batch flow's
 * (flows/batch/); this file only reads and writes rows.
 */
import * as z from 'zod'
import type { Db } from '../db'
import { readJsonColumn, selectRow, selectRows } from '../read-row'

export interface BatchRecord {
  id: string
  historyKey: string
  targetKind: 'template' | 'listing'
  targetId: string
  workbookSha256: string
  sheet: string
  /** The confirmed mapping, sheet header → field key (null: not used); empty when none was needed. */
  mapping: Record<string, string | null>
  inputFilename: string
  /** Every data row of the sheet by its sheet row number, in order ([] when not known). */
  sheetRows: number[]
  createdAtMs: number
}

/** A submission of a batch, without its rows' cells (they can be many megabytes). */
export interface BatchSend {
  submissionId: number
  runId: string
  state: 'pending' | 'sent' | 'accepted' | 'refused'
  kind: string
  rowNumbers: number[]
  rowCount: number
  createdAtMs: number
}

export interface RunOutcomes {
  runId: string
  /** One letter per submitted row, in the order sent: p pending (queued or running), s succeeded, f failed, c cancelled. */
  outcomes: string
  /** The error of each failed row, by its index in the run ('' for the others, [] when none). */
  errors: string[]
  /** The start of each row's output when it was text ('' for the others). */
  previews: string[]
  ended: boolean
}

const batchRow = z.object({
  id: z.string(),
  origin: z.string(),
  target_kind: z.string(),
  target_id: z.string(),
  workbook_sha256: z.string(),
  sheet: z.string(),
  mapping_json: z.string(),
  input_filename: z.string(),
  sheet_rows_json: z.string(),
  created_at_ms: z.number(),
})
const sendRow = z.object({
  id: z.number(),
  run_id: z.string(),
  state: z.enum(['pending', 'sent', 'accepted', 'refused']),
  send_kind: z.string(),
  row_numbers_json: z.string(),
  row_count: z.number(),
  created_at_ms: z.number(),
})
const asideRow = z.object({ sheet_row: z.number(), problems_json: z.string() })
const endedRow = z.object({ run_id: z.string() })

const outcomesRow = z.object({
  run_id: z.string(),
  outcomes: z.string(),
  errors_json: z.string(),
  previews_json: z.string(),
  ended: z.number(),
})
const batchIdRow = z.object({ batch_id: z.string() })

const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every(Number.isInteger)
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string')
const isMapping = (v: unknown): v is Record<string, string | null> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((f) => f === null || typeof f === 'string')
const jsonOr = <T>(text: string, check: (v: unknown) => v is T, empty: T): T =>
  text === '' ? empty : readJsonColumn(text, check)

function batchOf(row: z.output<typeof batchRow>): BatchRecord {
  return {
    id: row.id,
    historyKey: row.origin,
    targetKind: row.target_kind === 'listing' ? 'listing' : 'template',
    targetId: row.target_id,
    workbookSha256: row.workbook_sha256,
    sheet: row.sheet,
    mapping: jsonOr(row.mapping_json, isMapping, {}),
    inputFilename: row.input_filename,
    sheetRows: jsonOr(row.sheet_rows_json, isNumbers, []),
    createdAtMs: row.created_at_ms,
  }
}

export class BatchesTable {
  constructor(private readonly db: Db) {}

  insert(batch: BatchRecord): void {
    this.db
      .prepare(
        `INSERT INTO batches (id, origin, target_kind, target_id, workbook_sha256, sheet, mapping_json,
           input_filename, sheet_rows_json, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        batch.id,
        batch.historyKey,
        batch.targetKind,
        batch.targetId,
        batch.workbookSha256,
        batch.sheet,
        JSON.stringify(batch.mapping),
        batch.inputFilename,
        JSON.stringify(batch.sheetRows),
        batch.createdAtMs,
      )
  }

  /** Fills in what an older batch (built from the journal) did not know. */
  complete(id: string, sheet: string, mapping: Record<string, string | null>, sheetRows: number[]) {
    this.db
      .prepare(
        `UPDATE batches SET sheet = ?, mapping_json = ?, sheet_rows_json = ? WHERE id = ? AND sheet_rows_json = ''`,
      )
      .run(sheet, JSON.stringify(mapping), JSON.stringify(sheetRows), id)
  }

  byId(id: string): BatchRecord | null {
    const row = selectRow(this.db, batchRow, 'SELECT * FROM batches WHERE id = ?', [id])
    return row ? batchOf(row) : null
  }

  /** The newest batch of this sheet (same content, same sheet) sent to this target. */
  ofSheet(
    historyKey: string,
    targetKind: string,
    targetId: string,
    sha256: string,
    sheet: string,
  ): BatchRecord | null {
    const row = selectRow(
      this.db,
      batchRow,
      `SELECT * FROM batches WHERE origin = ? AND target_kind = ? AND target_id = ? AND workbook_sha256 = ?
       AND (sheet = ? OR sheet = '') ORDER BY created_at_ms DESC LIMIT 1`,
      [historyKey, targetKind, targetId, sha256, sheet],
    )
    return row ? batchOf(row) : null
  }

  /** The newest batch of this content, of one target or any. */
  ofContent(
    historyKey: string,
    sha256: string,
    target?: { kind: string; id: string },
  ): BatchRecord | null {
    const row = selectRow(
      this.db,
      batchRow,
      `SELECT * FROM batches WHERE origin = ? AND workbook_sha256 = ?${target ? ' AND target_kind = ? AND target_id = ?' : ''}
       ORDER BY created_at_ms DESC LIMIT 1`,
      target ? [historyKey, sha256, target.kind, target.id] : [historyKey, sha256],
    )
    return row ? batchOf(row) : null
  }

  /** The batch a run's submission belongs to. */
  idOfRun(historyKey: string, runId: string): string | null {
    const row = selectRow(
      this.db,
      batchIdRow,
      `SELECT batch_id FROM submissions WHERE origin = ? AND run_id = ? AND batch_id <> '' ORDER BY id DESC LIMIT 1`,
      [historyKey, runId],
    )
    return row?.batch_id ?? null
  }

  /** Every submission of a batch, in the order journaled. */
  sends(batchId: string): BatchSend[] {
    return selectRows(
      this.db,
      sendRow,
      `SELECT id, run_id, state, send_kind, row_numbers_json, row_count, created_at_ms FROM submissions
       WHERE batch_id = ? ORDER BY id`,
      [batchId],
    ).map((r) => ({
      submissionId: r.id,
      runId: r.run_id,
      state: r.state,
      kind: r.send_kind,
      rowNumbers: readJsonColumn(r.row_numbers_json, isNumbers),
      rowCount: r.row_count,
      createdAtMs: r.created_at_ms,
    }))
  }

  /** Names the batch and how it was sent on a journaled submission. */
  setSubmissionBatch(submissionId: number, batchId: string, kind: string) {
    this.db
      .prepare('UPDATE submissions SET batch_id = ?, send_kind = ? WHERE id = ?')
      .run(batchId, kind, submissionId)
  }

  /** Rows set aside (replacing what an earlier read said of the same rows). */
  setAside(batchId: string, rows: { sheetRow: number; problems: string[] }[]) {
    const put = this.db.prepare(
      `INSERT INTO batch_set_aside (batch_id, sheet_row, problems_json) VALUES (?, ?, ?)
       ON CONFLICT(batch_id, sheet_row) DO UPDATE SET problems_json = excluded.problems_json`,
    )
    for (const row of rows) put.run(batchId, row.sheetRow, JSON.stringify(row.problems))
  }

  setAsideRows(batchId: string): Map<number, string[]> {
    const rows = selectRows(
      this.db,
      asideRow,
      'SELECT sheet_row, problems_json FROM batch_set_aside WHERE batch_id = ?',
      [batchId],
    )
    return new Map(rows.map((r) => [r.sheet_row, readJsonColumn(r.problems_json, isStrings)]))
  }

  putOutcomes(historyKey: string, value: RunOutcomes, seenAtMs: number) {
    this.db
      .prepare(
        `INSERT INTO run_outcomes (origin, run_id, outcomes, errors_json, previews_json, ended, seen_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(origin, run_id) DO UPDATE SET outcomes = excluded.outcomes, errors_json = excluded.errors_json,
           previews_json = excluded.previews_json, ended = excluded.ended, seen_at_ms = excluded.seen_at_ms`,
      )
      .run(
        historyKey,
        value.runId,
        value.outcomes,
        JSON.stringify(value.errors),
        JSON.stringify(value.previews),
        value.ended ? 1 : 0,
        seenAtMs,
      )
  }

  /**
   * When each of these runs' outcomes were last written, and how many sheet rows are set aside:
   * what changes when a batch's state does, read without the outcomes themselves.
   */
  changeMark(historyKey: string, batchId: string, runIds: readonly string[]): string {
    const aside = this.db
      .prepare('SELECT count(*) AS n FROM batch_set_aside WHERE batch_id = ?')
      .get(batchId) as { n: number }
    if (runIds.length === 0) return `${aside.n}`
    const seen = this.db
      .prepare(
        `SELECT group_concat(run_id || ':' || seen_at_ms) AS marks FROM run_outcomes
         WHERE origin = ? AND run_id IN (${runIds.map(() => '?').join(', ')})`,
      )
      .get(historyKey, ...runIds) as { marks: string | null }
    return `${aside.n}|${seen.marks ?? ''}`
  }

  /** Which of these runs were last seen ended (their outcomes themselves are not read). */
  endedRuns(historyKey: string, runIds: readonly string[]): Set<string> {
    if (runIds.length === 0) return new Set()
    const rows = selectRows(
      this.db,
      endedRow,
      `SELECT run_id FROM run_outcomes WHERE origin = ? AND ended = 1
       AND run_id IN (${runIds.map(() => '?').join(', ')})`,
      [historyKey, ...runIds],
    )
    return new Set(rows.map((r) => r.run_id))
  }

  /**
   * The outcomes last seen of these runs, by run id (runs never seen are missing); the outputs'
   * previews only when asked for (a row's state does not need them).
   */
  outcomes(
    historyKey: string,
    runIds: readonly string[],
    withPreviews = false,
  ): Map<string, RunOutcomes> {
    if (runIds.length === 0) return new Map()
    const previews = withPreviews ? 'previews_json' : "'' AS previews_json"
    const rows = selectRows(
      this.db,
      outcomesRow,
      `SELECT run_id, outcomes, errors_json, ${previews}, ended FROM run_outcomes
       WHERE origin = ? AND run_id IN (${runIds.map(() => '?').join(', ')})`,
      [historyKey, ...runIds],
    )
    return new Map(
      rows.map((r) => [
        r.run_id,
        {
          runId: r.run_id,
          outcomes: r.outcomes,
          errors: jsonOr(r.errors_json, isStrings, []),
          previews: jsonOr(r.previews_json, isStrings, []),
          ended: r.ended === 1,
        },
      ]),
    )
  }
}
