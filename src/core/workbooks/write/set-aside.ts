/**
 * "Send the valid rows, set the rest aside": the rows of a checked sheet split into those to
 * send and those with problems, and the workbook to fix the latter in. It keeps the user's own
 * columns in their order, adds a Problem column, marks each bad cell with its problem, and keeps
 * where the rows came from on a hidden sheet. Read back, the Problem column is left out.
 */
import { rename, stat } from 'node:fs/promises'
import type { ReadResult } from '../validate/read-result'
import { loadExcelJs } from '../load-exceljs'
import { SET_ASIDE_PROBLEM } from '../mapping/header-mapping'

export interface SetAsideRow {
  /** The row's number in the original sheet. */
  rowNumber: number
  /** The row's cells as the user typed them, column for column. */
  cells: string[]
  problems: string[]
  /** 1-based columns of the bad cells. */
  badColumns: number[]
}

/**
 * The read without its bad rows (valid when no file problem is left), and the bad rows. Needs a
 * read that kept its cells (`keepCells`).
 */
export function splitInvalidRows(result: ReadResult): { send: ReadResult; aside: SetAsideRow[] } {
  const byIndex = new Map<number, { problems: string[]; columns: number[] }>()
  result.rowErrors.forEach((error, i) => {
    const entry = byIndex.get(error.rowIndex) ?? { problems: [], columns: [] }
    entry.problems.push(error.error)
    const column = result.errorCells[i]?.column
    if (column) entry.columns.push(column)
    byIndex.set(error.rowIndex, entry)
  })
  const keep = (_: unknown, i: number) => !byIndex.has(i)
  const aside = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([i, entry]) => ({
      rowNumber: result.rowNumbers[i] ?? i + 2,
      cells: result.cells?.[i] ?? [],
      problems: entry.problems,
      badColumns: entry.columns,
    }))
  const send: ReadResult = {
    ...result,
    valid: result.fileErrors.length === 0,
    rowErrors: [],
    errorCells: [],
    rows: result.rows.filter(keep),
    rowNumbers: result.rowNumbers.filter(keep),
    rowCount: result.rowCount - aside.length,
    ...(result.cells ? { cells: result.cells.filter(keep) } : {}),
  }
  return { send, aside }
}

/** The sheet the set-aside workbook keeps its origin on (hidden). */
const SET_ASIDE_SHEET = 'Set aside'

/** Writes the workbook of rows to fix; `about` lines go to the hidden sheet. */
export async function writeSetAsideWorkbook(
  path: string,
  headers: string[],
  rows: SetAsideRow[],
  about: [string, string][],
): Promise<void> {
  const ExcelJS = await loadExcelJs()
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('To fix')
  sheet.addRow([...headers, SET_ASIDE_PROBLEM]).font = { bold: true }
  sheet.getColumn(headers.length + 1).width = 60
  for (const row of rows) {
    const added = sheet.addRow([
      ...headers.map((_, i) => row.cells[i] ?? ''),
      row.problems.join('\n'),
    ])
    for (const column of row.badColumns) {
      const cell = added.getCell(column)
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFDE2E1' } }
      cell.note = row.problems.join('\n')
    }
  }
  const hidden = book.addWorksheet(SET_ASIDE_SHEET, { state: 'hidden' })
  for (const line of about) hidden.addRow(line)
  // Written whole, then moved into place: a half-written file never carries the name.
  const partial = `${path}.partial`
  await book.xlsx.writeFile(partial)
  await rename(partial, path)
}

/** Adds the run the other rows went to, on the hidden sheet of a set-aside workbook. */
export async function linkSetAsideToRun(path: string, runId: string): Promise<void> {
  const ExcelJS = await loadExcelJs()
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  book.getWorksheet(SET_ASIDE_SHEET)?.addRow(['Sent with run', runId])
  const partial = `${path}.partial`
  await book.xlsx.writeFile(partial)
  await rename(partial, path)
}

/** Set-aside workbooks are small; a bigger file is not opened whole to look for the link. */
const MAX_LINK_LOOKUP_BYTES = 20 * 1024 * 1024

/** The run a set-aside workbook's other rows went to (null: not a set-aside workbook). */
export async function setAsideRunOf(path: string): Promise<string | null> {
  if (!path.toLowerCase().endsWith('.xlsx')) return null
  const size = await stat(path).then(
    (s) => s.size,
    () => Infinity,
  )
  if (size > MAX_LINK_LOOKUP_BYTES) return null
  try {
    const ExcelJS = await loadExcelJs()
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(path)
    let runId: string | null = null
    book.getWorksheet(SET_ASIDE_SHEET)?.eachRow((row) => {
      if (row.getCell(1).value === 'Sent with run')
        runId = String(row.getCell(2).value ?? '') || null
    })
    return runId
  } catch {
    // Not readable as a whole workbook here: the reader proper says what is wrong with it.
    return null
  }
}
