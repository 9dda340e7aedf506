/**
 * "Send the valid rows, set the rest aside": the workbook to fix the rows with problems in,
 * written as the sheet is read (validate/aside-rows.ts), or from a read that kept every row's
 * cells, split (the command line). It keeps the user's own columns in their order, adds a
 * Problem column, marks each bad cell with its problem, and keeps where the rows came from on a
 * hidden sheet. Read back, the Problem column is left out.
 */
import { rename, rm, stat } from 'node:fs/promises'
import type ExcelJS from 'exceljs'
import type { AsideRow } from '../validate/aside-rows'
import type { ReadResult, SetAsideTarget } from '../validate/read-result'
import { loadExcelJs } from '../load-exceljs'
import { SET_ASIDE_PROBLEM } from '../mapping/header-mapping'
import { streamingWorkbook, type StreamingWorkbook } from './streaming-writer'

type SetAsideRow = AsideRow

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

const BAD_CELL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFDE2E1' } } as const

/**
 * The workbook of rows to fix, written as the rows come (a streaming writer: a row is on its
 * way to the disk once added, so 50,000 rows set aside cost no more memory than 50). Written to
 * `<path>.partial` and moved into place by `close`, so a half-written file never carries the
 * name; `abandon` removes it.
 */
export class SetAsideWriter {
  private sheet: ReturnType<ExcelJS.stream.xlsx.WorkbookWriter['addWorksheet']> | null = null
  private width = 0

  private constructor(
    private readonly target: SetAsideTarget,
    private readonly book: StreamingWorkbook,
  ) {}

  static async open(target: SetAsideTarget): Promise<SetAsideWriter> {
    return new SetAsideWriter(target, await streamingWorkbook(partialOf(target.path)))
  }

  /** The user's headers (the Problem column is added after them). */
  header(headers: string[]): void {
    if (this.sheet) return
    this.width = headers.length
    this.sheet = this.book.writer.addWorksheet('To fix')
    this.sheet.getColumn(headers.length + 1).width = 60
    const row = this.sheet.addRow([...headers, SET_ASIDE_PROBLEM])
    row.font = { bold: true }
    row.commit()
  }

  row(row: SetAsideRow): void {
    if (!this.sheet) this.header([])
    const problems = row.problems.join('\n')
    const cells: string[] = []
    for (let i = 0; i < this.width; i += 1) cells.push(row.cells[i] ?? '')
    cells.push(problems)
    const added = this.sheet!.addRow(cells)
    for (const column of row.badColumns) {
      const cell = added.getCell(column)
      cell.fill = BAD_CELL
      cell.note = problems
    }
    added.commit()
  }

  /** Finishes the workbook (its hidden sheet says where the rows came from) and names it. */
  async close(): Promise<void> {
    if (!this.sheet) this.header([])
    this.sheet!.commit()
    const hidden = this.book.writer.addWorksheet(SET_ASIDE_SHEET, { state: 'hidden' })
    for (const line of this.target.about) hidden.addRow(line).commit()
    hidden.commit()
    await this.book.commit()
    await rename(partialOf(this.target.path), this.target.path)
  }

  /** Nothing set aside after all: the partial file goes. */
  async abandon(): Promise<void> {
    await this.book.commit().catch(() => undefined)
    await rm(partialOf(this.target.path), { force: true })
  }
}

const partialOf = (path: string) => `${path}.partial`

/** Writes the workbook of rows to fix; `about` lines go to the hidden sheet. */
export async function writeSetAsideWorkbook(
  path: string,
  headers: string[],
  rows: SetAsideRow[],
  about: [string, string][],
): Promise<void> {
  const writer = await SetAsideWriter.open({ path, about })
  try {
    writer.header(headers)
    for (const row of rows) writer.row(row)
  } catch (error) {
    await writer.abandon()
    throw error
  }
  await writer.close()
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
