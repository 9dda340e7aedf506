/**
 * Excel workbooks (.xlsx), read with exceljs's streaming reader after every part was unpacked
 * once within the limits (zip-check.ts). Rows go to the row checker as they are read: the
 * hidden mapping sheet (when it comes before the rows, as in an app-made workbook), the input
 * sheet (the first one named Input, or else the first visible sheet that is not one of the app's
 * own), and the Run settings sheet.
 */
import { Readable } from 'node:stream'
import type { CellValue } from '../../shared/input-schema'
import { MAX_COLUMNS, MAX_ROWS, RESAVE, WorkbookProblem } from './file-problem'
import { SHEET_NAMES, type RowChecker } from './row-checker'
import { withIsoDatesAsSerials } from './iso-dates'
import { checkZipParts } from './zip-check'

interface StreamedRow {
  number: number
  /** exceljs's cell values, 1-based (index 0 is unused). */
  values: unknown[]
  getCell(column: number): { numFmt?: unknown }
}

interface StreamedSheet extends AsyncIterable<StreamedRow> {
  name?: string
  state?: string
}

/** An exceljs cell value as the text, number, flag or date a user sees in the cell. */
function cellOf(value: unknown, wantsLink: boolean): CellValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value
  if (value instanceof Date) return dateOrTime(value)
  if (typeof value !== 'object') return String(value)
  const cell = value as Record<string, unknown>
  if (Array.isArray(cell.richText))
    return (cell.richText as { text?: unknown }[]).map((run) => String(run.text ?? '')).join('')
  if ('hyperlink' in cell) {
    const link = typeof cell.hyperlink === 'string' ? cell.hyperlink : ''
    if (wantsLink && /^https?:/i.test(link)) return link
    return cellOf(cell.text, false) ?? (link || null)
  }
  if ('result' in cell) return cellOf(cell.result, wantsLink)
  if ('formula' in cell || 'sharedFormula' in cell) return null
  if ('error' in cell) return String(cell.error)
  return String(value)
}

/** A time of day (a date cell before 1900) reads as its time, the way the cell shows it. */
function dateOrTime(date: Date): CellValue {
  const ms = date.getTime()
  if (Number.isNaN(ms)) return null
  if (ms >= Date.UTC(1900, 0, 1)) return date
  return date.toISOString().slice(11, 19)
}

/**
 * Whether a number format shows a day and no time of it (quoted text, [colour] and escaped
 * characters aside, it has no hour or second): a date cell holding a time shows only its day.
 */
function showsDayOnly(numFmt: unknown): boolean {
  if (typeof numFmt !== 'string') return false
  const code = numFmt.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '')
  return /[dy]/i.test(code) && !/[hs]/i.test(code)
}

/** A cell as the user sees it: its value, a date in a date-only format as that day. */
function shownCell(row: StreamedRow, column: number, wantsLink: boolean): CellValue {
  const value = cellOf(row.values[column], wantsLink)
  if (!(value instanceof Date) || !showsDayOnly(row.getCell(column).numFmt)) return value
  return new Date(Math.floor(value.getTime() / 86_400_000) * 86_400_000)
}

function sameName(a: string | undefined, b: string): boolean {
  return (a ?? '').trim().toLowerCase() === b.toLowerCase()
}

/** Whether a sheet met while streaming holds the rows (the first such sheet does). */
function holdsRows(sheet: StreamedSheet): boolean {
  if (sameName(sheet.name, SHEET_NAMES.input)) return true
  if (sheet.state === 'hidden' || sheet.state === 'veryHidden') return false
  return !Object.values(SHEET_NAMES).some((ours) => sameName(sheet.name, ours))
}

async function readInputSheet(sheet: StreamedSheet, checker: RowChecker): Promise<void> {
  for await (const row of sheet) {
    if (row.number > MAX_ROWS || row.values.length > MAX_COLUMNS + 1)
      throw new WorkbookProblem(
        `The sheet “${sheet.name}” has a cell beyond the last row or column a spreadsheet can have. ${RESAVE}`,
      )
    const cells: CellValue[] = []
    for (let column = 1; column < row.values.length; column += 1)
      cells.push(shownCell(row, column, checker.headerRead && checker.wantsLink(column - 1)))
    checker.row(cells, row.number)
  }
}

async function readRunSettings(sheet: StreamedSheet, checker: RowChecker): Promise<void> {
  for await (const row of sheet) {
    if (row.number === 1) continue
    const [label, key] = [cellOf(row.values[1], false), cellOf(row.values[3], false)]
    checker.runSetting(String(key ?? label ?? ''), shownCell(row, 2, true))
  }
}

/** exceljs's words for a broken file, in the buyer's. */
function problemOf(error: unknown, sheetName: string | undefined): WorkbookProblem {
  if (error instanceof WorkbookProblem) return error
  const detail = error instanceof Error ? error.message : ''
  const where = sheetName ? `The sheet “${sheetName}”` : 'The workbook'
  if (/column letter|Excel supports columns/i.test(detail))
    return new WorkbookProblem(
      `${where} has a cell beyond column XFD, the last column a spreadsheet can have. ${RESAVE}`,
    )
  // The XML parser's errors start with the line and column of the fault.
  if (/^\d+:\d+: /.test(detail))
    return new WorkbookProblem(
      `${where} is damaged: an element in it is closed in the wrong place, or never ends. ${RESAVE}`,
    )
  return new WorkbookProblem(
    `The workbook could not be read: its contents are not laid out the way spreadsheet programs write them. ${RESAVE}`,
  )
}

/** A zip that is no xlsx exceljs can stream (it looks for the workbook in one place only). */
function notAnXlsx(parts: string[], fileName: string): WorkbookProblem | null {
  if (parts.includes('xl/workbook.xml')) return null
  const what = parts.includes('mimetype')
    ? 'an OpenDocument file (.ods)'
    : parts.includes('word/document.xml')
      ? 'a Word document'
      : 'a zip archive'
  return new WorkbookProblem(
    `“${fileName}” is ${what}, not an Excel workbook this service can read. Save it as .xlsx (Excel workbook) or .csv and try again.`,
  )
}

export async function readXlsx(
  bytes: Uint8Array,
  fileName: string,
  checker: RowChecker,
): Promise<void> {
  const notXlsx = notAnXlsx(await checkZipParts(bytes), fileName)
  if (notXlsx) throw notXlsx
  const readable = withIsoDatesAsSerials(bytes)
  const { default: ExcelJS } = await import('exceljs')
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(
    Readable.from([Buffer.from(readable.buffer, readable.byteOffset, readable.byteLength)]),
    {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'cache',
      styles: 'cache',
      entries: 'ignore',
    },
  ) as unknown as AsyncIterable<StreamedSheet>
  let inputRead = false
  let current: string | undefined
  let sheets = 0
  try {
    for await (const sheet of reader) {
      sheets += 1
      current = sheet.name
      if (!inputRead && holdsRows(sheet)) {
        inputRead = true
        await readInputSheet(sheet, checker)
      } else if (!inputRead && sameName(sheet.name, SHEET_NAMES.mapping)) {
        for await (const row of sheet)
          checker.mappingRow(row.values.slice(1, 4).map((value) => cellOf(value, false)))
      } else if (sameName(sheet.name, SHEET_NAMES.run)) {
        await readRunSettings(sheet, checker)
      } else {
        // The streaming reader moves on only once a sheet is read to its end.
        for await (const row of sheet) void row
      }
    }
  } catch (error) {
    throw problemOf(error, current)
  }
  if (sheets === 0)
    throw new WorkbookProblem(
      `“${fileName}” is not a spreadsheet with a sheet in it (it holds no worksheet). Check that it is the file you meant; if it is, open it in Excel or LibreOffice, save it again as .xlsx, and try again.`,
    )
}
