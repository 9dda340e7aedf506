/**
 * One way to name a row everywhere (DESIGN.md, "Row numbers"): when a run's rows came from a
 * workbook on this device, by the spreadsheet row number ("Row 6"); otherwise by the 1-based
 * position in the submitted rows, said as such ("Submitted row 5"). Used by validation messages,
 * run tables, errors, the results workbook and the download folders alike.
 */

export interface RowNumbering {
  source: 'spreadsheet' | 'submitted'
  /** With 'spreadsheet': the sheet row of each submitted row, by its 0-based index. */
  numbers: readonly number[]
}

/** Rows named by their position in the submission (nothing is known of a workbook). */
export const SUBMITTED_ROWS: RowNumbering = { source: 'submitted', numbers: [] }

/** The numbering of a run whose rows came from a workbook, given each row's sheet row. */
export function spreadsheetRows(numbers: readonly number[]): RowNumbering {
  return numbers.length > 0 ? { source: 'spreadsheet', numbers } : SUBMITTED_ROWS
}

/** The number a row is known by (sourceRowIndex / rowIndex are 0-based). */
export function rowNumberOf(numbering: RowNumbering | null | undefined, index: number): number {
  if (numbering?.source === 'spreadsheet') {
    const sheetRow = numbering.numbers[index]
    if (sheetRow !== undefined) return sheetRow
  }
  return index + 1
}

function named(numbering: RowNumbering | null | undefined, index: number): boolean {
  return numbering?.source === 'spreadsheet' && numbering.numbers[index] !== undefined
}

/**
 * "Row 6" or "Submitted row 5" (lower case with `lower`, for the middle of a sentence); "Whole run"
 * for an index below 0, the service's mark of a task or output of the whole run.
 */
export function rowLabel(
  numbering: RowNumbering | null | undefined,
  index: number,
  lower = false,
): string {
  const n = rowNumberOf(numbering, index)
  const text =
    index < 0 ? 'Whole run' : named(numbering, index) ? `Row ${n}` : `Submitted row ${n}`
  return lower ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

/** The header of the row column in tables and the results workbook. */
export function rowColumnHeader(numbering: RowNumbering | null | undefined): string {
  return numbering?.source === 'spreadsheet' ? 'Sheet row' : 'Submitted row'
}

/**
 * The folder of one row's downloaded files, `row-006`: the row's number as rowNumberOf gives it
 * (the spreadsheet row when known, else its position in the submission; the results workbook
 * beside the folders says which). `run` holds files of the whole run.
 */
export function rowFolderName(
  numbering: RowNumbering | null | undefined,
  index: number,
  rowCount: number,
): string {
  if (index < 0) return 'run'
  const widest =
    numbering?.source === 'spreadsheet' ? Math.max(rowCount, ...numbering.numbers) : rowCount
  return `row-${String(rowNumberOf(numbering, index)).padStart(Math.max(3, String(widest).length), '0')}`
}

/**
 * Which sheet rows, in a few words: "row 5", "rows 2 to 4", "rows 2, 4 and 7", or for many rows
 * with gaps "rows between 4 and 53" (the count is said beside it). '' for no rows.
 */
export function sheetRowsText(numbers: readonly number[]): string {
  const first = numbers[0]
  const last = numbers[numbers.length - 1]
  if (first === undefined || last === undefined) return ''
  if (first === last) return `row ${first}`
  if (last - first + 1 === numbers.length) return `rows ${first} to ${last}`
  if (numbers.length > 12) return `rows between ${first} and ${last}`
  return `rows ${numbers.slice(0, -1).join(', ')} and ${last}`
}
