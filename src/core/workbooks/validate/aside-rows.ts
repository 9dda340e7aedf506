/**
 * The rows with problems, set aside as they are read (ReadOptions.setAside): each one's cells
 * as the user typed them, its problems and its bad cells go to a sink (the workbook to fix) the
 * moment the row is checked, so no row's text is kept for the whole sheet. Every problem of a
 * set-aside row goes with it, however many rows have problems (the list in the read result is
 * bounded; the workbook to fix is not).
 */
import { isBlank, type CellValue } from '../../../shared/input-schema'
import { cellText } from '../sheets'
import type { ReadResult } from './read-result'

/** A row set aside: where it was, what it held, what is wrong with it. */
export interface AsideRow {
  /** The row's number in the original sheet. */
  rowNumber: number
  /** The row's cells as the user typed them, column for column. */
  cells: string[]
  problems: string[]
  /** 1-based columns of the bad cells. */
  badColumns: number[]
}

/** A row set aside, as the batch keeps it: its sheet row and its first few problems. */
export interface AsideSummary {
  sheetRow: number
  problems: string[]
}

/** Problems kept per row for the batch (the workbook to fix holds them all). */
const MAX_KEPT_PROBLEMS = 3

/** Where the rows set aside go (the workbook to fix: write/set-aside.ts). */
export interface AsideSink {
  header(headers: string[]): void
  row(row: AsideRow): void
}

/** A row's cells as text, one a column of the header (blank: ''). */
export function cellTexts(cells: CellValue[], width: number): string[] {
  const out: string[] = []
  for (let i = 0; i < width; i += 1) {
    const cell = cells[i] ?? null
    out.push(isBlank(cell) ? '' : cellText(cell))
  }
  return out
}

/** The problems of the row being checked, and the indexes of the rows set aside so far. */
export class AsideRows {
  private problems: string[] = []
  private badColumns: number[] = []
  /** Indexes (among the data rows) of the rows set aside, in order. */
  readonly indexes: number[] = []
  /** The rows set aside by sheet row, with their first problems (for the batch). */
  readonly rows: AsideSummary[] = []

  constructor(readonly sink: AsideSink) {}

  /** A problem of the row being checked (column: 1-based, null when it has no column). */
  problem(message: string, column: number | null): void {
    this.problems.push(message)
    if (column) this.badColumns.push(column)
  }

  /** The row is checked: set aside when it had a problem (answered). */
  endRow(rowIndex: number, rowNumber: number, cells: CellValue[], width: number): boolean {
    if (this.problems.length === 0) return false
    this.indexes.push(rowIndex)
    this.rows.push({ sheetRow: rowNumber, problems: this.problems.slice(0, MAX_KEPT_PROBLEMS) })
    this.sink.row({
      rowNumber,
      cells: cellTexts(cells, width),
      problems: this.problems,
      badColumns: this.badColumns,
    })
    this.problems = []
    this.badColumns = []
    return true
  }
}

/**
 * The read without the rows set aside (at `indexes`, in order): valid unless the file has a
 * problem, and saying where the rows set aside went.
 */
export function withoutAside(
  result: ReadResult,
  indexes: number[],
  path: string,
  list: AsideSummary[],
): ReadResult {
  const aside = new Set(indexes)
  const keep = (_: unknown, i: number) => !aside.has(i)
  return {
    ...result,
    valid: result.fileErrors.length === 0,
    rowErrors: [],
    errorCells: [],
    rows: result.rows.filter(keep),
    rowNumbers: result.rowNumbers.filter(keep),
    rowCount: result.rowCount - indexes.length,
    ...(result.cells ? { cells: result.cells.filter(keep) } : {}),
    setAside: { path, rows: indexes.length, list },
  }
}
