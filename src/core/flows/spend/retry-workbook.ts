/**
 * Failed rows fixed in the workbook instead of in the app: the user gives back the workbook the
 * run was sent from, corrected. Its failed rows are found by their sheet row numbers; that the
 * sheet still holds the same rows there is checked by the rows the run sent that did not fail
 * (each must be found unchanged at its sheet row; when every row failed, the sheet must have as
 * many rows as when it was sent). The cells changed in the failed rows become the same edits as
 * typing them in the app (retry-edits.ts), checked the same way; files are kept as sent.
 */
import type { RunTarget } from '../../../shared/run-target'
import type { InputRow, ListingInputSchema } from '../../../shared/contract'
import { EngineError } from '../../errors'
import type { RowEdit } from './retry-edits'
import { submittedTarget, type Submission } from './submissions'

/** What reading the corrected workbook gives (src/core/workbooks, with `keepCells`). */
export interface CorrectedWorkbook {
  rows: InputRow[]
  rowNumbers: number[]
  /** Each row's cells as typed, column for column, and the field key of each column. */
  cells?: string[][] | undefined
  columnFields?: (string | null)[] | undefined
}

/** Reads it like the run's workbook: `target` finds the column mapping remembered for its sheet. */
export type ReadCorrected = (
  path: string,
  schema: ListingInputSchema | null,
  target: RunTarget,
) => Promise<CorrectedWorkbook>

/** A corrected workbook to take the failed rows' new cells from. */
export interface CorrectedFrom {
  file: string
  /** Its name as the user knows it (the path may be a temporary copy). */
  fileName: string
  read: ReadCorrected
}

/** The failed rows of a run: their places among the rows sent, and their sheet rows. */
export interface FailedRows {
  runId: string
  original: Submission
  indexes: number[]
  rowNumbers: number[]
}

const DIFFERENT_SHEET =
  'Use the workbook the run was sent from, fixed only in its failed rows, with no rows added, removed or moved.'

function refuse(message: string, nextStep = DIFFERENT_SHEET): never {
  throw new EngineError('bad-input', message, nextStep)
}

/** The fields compared and taken: a row's own fields, files aside (they stay as sent). */
function comparedKeys(schema: ListingInputSchema | null, sent: InputRow): string[] {
  if (!schema) return Object.keys(sent)
  return schema.fields.filter((f) => f.scope !== 'run' && f.type !== 'file').map((f) => f.key)
}

/** A value as compared: the same reader made both, so equal cells give equal text. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
}

/** The text typed in each column of the workbook's row `at`, by field key. */
function typedTexts(book: CorrectedWorkbook, at: number): Map<string, string> {
  const texts = new Map<string, string>()
  const cells = book.cells?.[at] ?? []
  book.columnFields?.forEach((key, column) => {
    if (key && !texts.has(key)) texts.set(key, cells[column] ?? '')
  })
  return texts
}

/** Refuses a workbook whose rows are not where the run's were (checked by the rows that went). */
function checkSameRows(
  schema: ListingInputSchema | null,
  run: FailedRows,
  book: CorrectedWorkbook,
  place: Map<number, number>,
  fileName: string,
): void {
  const { original } = run
  const failed = new Set(run.indexes)
  let anchors = 0
  original.rows.forEach((sent, i) => {
    if (failed.has(i)) return
    const sheetRow = original.rowNumbers[i]!
    const at = place.get(sheetRow)
    const now = at === undefined ? undefined : book.rows[at]
    if (!now || comparedKeys(schema, sent).some((key) => !same(sent[key], now[key])))
      refuse(
        `Row ${sheetRow} of “${fileName}” is not the row this run sent as row ${sheetRow}, so the failed rows cannot be found by their row numbers.`,
      )
    anchors += 1
  })
  if (anchors === 0 && original.workbookRows > 0 && book.rows.length !== original.workbookRows)
    refuse(
      `“${fileName}” has ${book.rows.length} rows; the workbook this run was sent from had ${original.workbookRows}, so the failed rows cannot be found by their row numbers.`,
    )
}

/**
 * The cells of the failed rows that the corrected workbook changes, as the text typed there.
 * Refuses a workbook that is not the run's (rows moved, added or removed), and one that changes
 * none of the failed rows.
 */
export async function editsFromWorkbook(
  schema: ListingInputSchema | null,
  run: FailedRows,
  from: CorrectedFrom,
): Promise<RowEdit[]> {
  const { original } = run
  if (original.rowNumbers.length === 0)
    refuse(
      'The rows of this run did not come from a workbook, so a corrected one cannot be matched to them.',
      'Fix the rows in a workbook and send it again.',
    )
  const book = await from.read(from.file, schema, submittedTarget(original))
  const place = new Map(book.rowNumbers.map((n, i) => [n, i]))
  checkSameRows(schema, run, book, place, from.fileName)
  const edits: RowEdit[] = []
  run.indexes.forEach((index, k) => {
    const sheetRow = run.rowNumbers[k]!
    const at = place.get(sheetRow)
    if (at === undefined)
      refuse(`Row ${sheetRow}, which failed, is empty or missing in “${from.fileName}”.`)
    const sent = original.rows[index]!
    const now = book.rows[at]!
    const texts = typedTexts(book, at)
    const cells: Record<string, string> = {}
    for (const key of comparedKeys(schema, sent))
      if (!same(sent[key], now[key])) cells[key] = texts.get(key) ?? String(now[key] ?? '')
    if (Object.keys(cells).length > 0) edits.push({ row: sheetRow, cells })
  })
  if (edits.length === 0)
    refuse(
      `None of the failed rows (${run.rowNumbers.join(', ')}) is changed in “${from.fileName}”.`,
      'Fix the failed rows’ cells in the workbook and save it, or retry the rows as they are.',
    )
  return edits
}
