/**
 * The rows with problems, set aside as they are read (ReadOptions.setAside): each one's cells
 * as they were read (numbers, dates and yes/no kept as such, and a number field's text as the
 * number it writes), its problems and its bad cells go to a sink (the workbook to fix) the
 * moment the row is checked, so no row is kept for the whole sheet. Every problem of a set-aside
 * row goes with it, however many rows have problems (the list in the read result is bounded;
 * the workbook to fix is not).
 */
import type { SchemaField } from '../../../shared/contract'
import { isBlank, type CellValue } from '../../../shared/input-schema'
import { cellText } from '../sheets'
import type { ReadResult } from './read-result'

/** A row set aside: where it was, what it held, what is wrong with it. */
export interface AsideRow {
  /** The row's number in the sheet read. */
  rowNumber: number
  /**
   * Its row in the user's own sheet: `rowNumber`, unless the sheet read is a set-aside workbook
   * (then its hidden column's, 0 when that says nothing).
   */
  sheetRow: number
  /** The row's cells as read, one a column of the header given to the sink. */
  cells: CellValue[]
  problems: string[]
  /** 1-based columns of the bad cells, among the header's given to the sink. */
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

/**
 * A number field's cell as text (every cell of a csv is) as the number it writes exactly, so the
 * workbook to fix holds a number there ("9.5", not "9.50", "007" or "1,000", which stay text).
 */
function asNumber(cell: CellValue | undefined): CellValue {
  if (typeof cell !== 'string') return cell ?? null
  const text = cell.trim()
  const n = Number(text)
  return text !== '' && Number.isFinite(n) && String(n) === text ? n : cell
}

/** The problems of the row being checked, and the indexes of the rows set aside so far. */
export class AsideRows {
  private problems: string[] = []
  private badColumns: number[] = []
  /** The indexes of the sheet's columns that go to the sink: all but a set-aside workbook's own. */
  private columns: number[] = []
  /** Of each of those, whether its field takes a number. */
  private numeric: boolean[] = []
  /** Indexes (among the data rows) of the rows set aside, in order. */
  readonly indexes: number[] = []
  /** The rows set aside by sheet row, with their first problems (for the batch). */
  readonly rows: AsideSummary[] = []

  /** `path`: where the workbook to fix goes. */
  constructor(
    private readonly sink: AsideSink,
    readonly path: string,
  ) {}

  /**
   * The header row's texts (null: blank), the columns a set-aside workbook added to it, and the
   * field of each column.
   */
  header(texts: (string | null)[], added: ReadonlySet<number>, fields: (SchemaField | null)[]) {
    this.columns = texts.map((_, i) => i).filter((i) => !added.has(i))
    this.numeric = this.columns.map((i) => ['number', 'integer'].includes(fields[i]?.type ?? ''))
    this.sink.header(this.columns.map((i) => texts[i] ?? ''))
  }

  /** A problem of the row being checked (column: 1-based, null when it has no column). */
  problem(message: string, column: number | null): void {
    this.problems.push(message)
    if (column) this.badColumns.push(column)
  }

  /** The row is checked: set aside when it had a problem (answered). */
  endRow(rowIndex: number, rowNumber: number, sheetRow: number, cells: CellValue[]): boolean {
    if (this.problems.length === 0) return false
    this.indexes.push(rowIndex)
    // A row set aside again from a workbook to fix is named by its row in the buyer's own sheet.
    const own = sheetRow > 0 ? sheetRow : rowNumber
    this.rows.push({ sheetRow: own, problems: this.problems.slice(0, MAX_KEPT_PROBLEMS) })
    const { columns } = this
    this.sink.row({
      rowNumber,
      sheetRow,
      cells: columns.map((i, k) => (this.numeric[k] ? asNumber(cells[i]) : (cells[i] ?? null))),
      problems: this.problems,
      badColumns: this.badColumns.map((c) => columns.indexOf(c - 1) + 1).filter((c) => c > 0),
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
    ...(result.sourceRows ? { sourceRows: result.sourceRows.filter(keep) } : {}),
    rowCount: result.rowCount - indexes.length,
    ...(result.cells ? { cells: result.cells.filter(keep) } : {}),
    setAside: { path, rows: indexes.length, list },
  }
}
