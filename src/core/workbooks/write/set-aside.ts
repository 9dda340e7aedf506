/**
 * "Send the valid rows, set the rest aside": the workbook to fix the rows with problems in,
 * written as the sheet is read (validate/aside-rows.ts), by the app and the command line alike.
 * It keeps the user's own columns in their order, each cell as it was read (a number, a date,
 * yes/no or text), adds a Problem column and a hidden Sheet row column (each row's row in the
 * user's own sheet), marks each bad cell with its problem, and keeps where the rows came from on
 * a hidden sheet. Read back, the two added columns are not the user's (validate/source-rows.ts).
 */
import { rename } from 'node:fs/promises'
import type { AsideRow } from '../validate/aside-rows'
import type { SetAsideTarget } from '../validate/read-result'
import { loadExcelJs } from '../load-exceljs'
import { SET_ASIDE_PROBLEM, SET_ASIDE_SHEET_ROW } from '../mapping/header-mapping'
import { columnLetter } from '../sheets'
import { openXlsx } from '../read/xlsx/xlsx-file'
import {
  comment,
  commentsEnd,
  commentsStart,
  fixedParts,
  hiddenSheet,
  sheetEnd,
  sheetStart,
  STYLE,
  textCell,
  valueCell,
  vmlEnd,
  vmlShape,
  vmlStart,
} from './set-aside-parts'
import { ZipParts, type ZipPart } from './zip-writer'

/** The sheet the set-aside workbook keeps its origin on (hidden). */
const SET_ASIDE_SHEET = 'Set aside'
/** The sheet of its rows. */
const TO_FIX_SHEET = 'To fix'

/**
 * The workbook of rows to fix, written as the rows come: each row's XML is packed the moment it
 * is added (zip-writer.ts), so 50,000 rows set aside keep no more than their packed bytes, and
 * no spreadsheet library is loaded into the worker that reads the sheet. Written to
 * `<path>.partial` and moved into place by `close`, so a half-written file never carries the
 * name; `abandon` leaves nothing.
 */
export class SetAsideWriter {
  private readonly zip = new ZipParts()
  private readonly sheet: ZipPart
  private readonly comments: ZipPart
  private readonly shapes: ZipPart
  private width = -1
  private rowNumber = 1
  private notes = 0

  private constructor(private readonly target: SetAsideTarget) {
    this.sheet = this.zip.add('xl/worksheets/sheet1.xml')
    this.comments = this.zip.add('xl/comments1.xml', commentsStart)
    this.shapes = this.zip.add('xl/drawings/vmlDrawing1.vml', vmlStart)
  }

  static async open(target: SetAsideTarget): Promise<SetAsideWriter> {
    return new SetAsideWriter(target)
  }

  /** The user's headers (the Problem and Sheet row columns are added after them). */
  header(headers: string[]): void {
    if (this.width >= 0) return
    this.width = headers.length
    this.sheet.write(sheetStart(headers.length + 1))
    const cells = [...headers, SET_ASIDE_PROBLEM, SET_ASIDE_SHEET_ROW].map((text, i) =>
      textCell(`${columnLetter(i)}1`, text, STYLE.bold),
    )
    this.sheet.write(`<row r="1">${cells.join('')}</row>`)
  }

  row(row: AsideRow): void {
    if (this.width < 0) this.header([])
    const r = (this.rowNumber += 1)
    const problems = row.problems.join('\n')
    const bad = new Set(row.badColumns)
    let xml = `<row r="${r}">`
    for (let i = 0; i < this.width; i += 1) {
      const ref = `${columnLetter(i)}${r}`
      const marked = bad.has(i + 1)
      xml += valueCell(ref, row.cells[i] ?? null, marked)
      if (!marked) continue
      this.comments.write(comment(ref, problems))
      this.shapes.write(vmlShape(this.notes, r - 1, i))
      this.notes += 1
    }
    const problem = textCell(`${columnLetter(this.width)}${r}`, problems)
    const sheetRow = valueCell(`${columnLetter(this.width + 1)}${r}`, row.sheetRow || null)
    this.sheet.write(`${xml}${problem}${sheetRow}</row>`)
  }

  /** Finishes the workbook (its hidden sheet says where the rows came from) and names it. */
  async close(): Promise<void> {
    if (this.width < 0) this.header([])
    this.sheet.write(sheetEnd)
    this.comments.write(commentsEnd)
    this.shapes.write(vmlEnd)
    const about = this.target.about.map(
      ([a, b], i) =>
        `<row r="${i + 1}">${textCell(`A${i + 1}`, a)}${textCell(`B${i + 1}`, b)}</row>`,
    )
    this.zip.add('xl/worksheets/sheet2.xml', hiddenSheet(about.join('')))
    for (const [name, text] of fixedParts(TO_FIX_SHEET, SET_ASIDE_SHEET)) this.zip.add(name, text)
    await this.zip.writeTo(partialOf(this.target.path))
    await rename(partialOf(this.target.path), this.target.path)
  }

  /** Nothing set aside after all: nothing is written. */
  async abandon(): Promise<void> {
    this.zip.discard()
  }
}

const partialOf = (path: string) => `${path}.partial`

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

/**
 * The run a set-aside workbook's other rows went to (null: not a set-aside workbook). Told by
 * the sheets' names first, so any other workbook costs a look at its directory: a buyer's own
 * sheet of a few MB on disk can hold hundreds of MB of text, which opening it whole to look for
 * the link would hold in memory. A set-aside workbook's hidden sheet is then read as it streams.
 */
export async function setAsideRunOf(path: string): Promise<string | null> {
  if (!(await isSetAsideWorkbook(path))) return null
  try {
    const book = await openXlsx({ path })
    const hidden = book.sheets.find((sheet) => sheet.name === SET_ASIDE_SHEET)
    if (!hidden) return null
    let runId: string | null = null
    await book.rows(hidden, (cells) => {
      if (cells[0] === 'Sent with run') runId = String(cells[1] ?? '') || null
    })
    return runId
  } catch {
    // Not readable as an xlsx here: the reader proper says what is wrong with it.
    return null
  }
}

/**
 * Whether an .xlsx file is a set-aside workbook, told by its sheets' names alone (no rows read,
 * so it costs little whatever the file's size).
 */
export async function isSetAsideWorkbook(path: string): Promise<boolean> {
  if (!path.toLowerCase().endsWith('.xlsx')) return false
  try {
    const names = new Set((await openXlsx({ path })).sheets.map((sheet) => sheet.name))
    return names.has(TO_FIX_SHEET) && names.has(SET_ASIDE_SHEET)
  } catch {
    // Not readable as an xlsx here: the reader proper says what is wrong with it.
    return false
  }
}
