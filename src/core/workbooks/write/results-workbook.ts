/**
 * Writes a results workbook from a plain plan (flows/results builds it from the run): in a worker,
 * with exceljs's streaming writer, to a temporary name renamed when complete. The rows come from
 * a file of one JSON line each (spillResultsRows), read as they are written, so neither thread
 * holds a big run's rows at once. Text that came
 * from the service is made safe for a cell first: characters XML cannot hold are dropped and
 * text longer than a cell holds is cut, so no answer can break the file.
 */
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import type ExcelJS from 'exceljs'
import { JsonLines } from '../json-lines'
import { writeWorkbookFile } from './streaming-writer'

export type PlanCell = string | number | boolean | Date | null | { text: string; hyperlink: string }

export interface PlanRow {
  cells: PlanCell[]
  badCell?: number
  linkCells?: number[]
}

export interface ResultsPlan {
  columns: { header: string; width: number }[]
  /** The file of the rows, one JSON line each (no dates among them), in the sheet's order. */
  rowsFile: string
  about: { header: [string, string]; lines: [string, PlanCell][] }
}

/** Writes `rows` to `path`, one JSON line each, a megabyte at a time; returns how many. */
export async function spillResultsRows(path: string, rows: Iterable<PlanRow>): Promise<number> {
  const file = await open(path, 'w')
  const lines = new JsonLines()
  let count = 0
  try {
    for (const row of rows) {
      const line = JSON.stringify(row)
      if (!lines.add(line)) {
        await lines.writeToFile(file)
        lines.add(line)
      }
      count += 1
    }
    await lines.writeToFile(file)
  } finally {
    await file.close()
  }
  return count
}

async function* rowsOf(path: string): AsyncGenerator<PlanRow> {
  // node:readline loads here, with a results workbook: not with every command that reads one.
  const { createInterface } = process.getBuiltinModule('node:readline')
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity })
  for await (const line of lines) if (line) yield JSON.parse(line) as PlanRow
}

/** Excel keeps at most 32,767 characters in a cell. */
const CELL_MAX = 32_767
// Characters XML 1.0 cannot hold (controls other than tab and line breaks, lone surrogates).
const NOT_XML = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(11, 12)}${String.fromCharCode(14)}-${String.fromCharCode(31)}\\ufffe\\uffff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`,
  'g',
)

export function cellSafeText(text: string): string {
  const clean = text.replace(NOT_XML, '')
  return clean.length > CELL_MAX ? clean.slice(0, CELL_MAX) : clean
}

function safe(cell: PlanCell): ExcelJS.CellValue {
  if (typeof cell === 'string') return cellSafeText(cell)
  if (cell && typeof cell === 'object' && !(cell instanceof Date))
    return { text: cellSafeText(cell.text), hyperlink: cellSafeText(cell.hyperlink) }
  return cell
}

/** Cells written as they are (no shared strings table to hold every text until the end). */
const RESULTS_BOOK = { useStyles: true, useSharedStrings: false }

/** A sheet's text waiting to be packed beyond which its rows wait for the packer. */
const PACKING_BACKLOG_BYTES = 4 * 1024 * 1024

/**
 * Waits while the zip's packer is behind. exceljs hands a sheet's text to the packer 64 KB at a
 * time without heeding its backpressure, so rows made faster than they are deflated pile up
 * there: 100,000 rows of 4 KB queued 66 MB in the worker by their end. A disk that refuses the
 * file (`failed`) ends the wait, since the packer then never drains.
 */
async function packerCaughtUp(sheet: ExcelJS.Worksheet, failed: Promise<never>): Promise<void> {
  type Packer = NodeJS.EventEmitter & { _writableState?: { length: number } }
  const text = (sheet as unknown as { stream?: { pipes?: Packer[] } }).stream
  for (const packer of text?.pipes ?? [])
    if ((packer._writableState?.length ?? 0) > PACKING_BACKLOG_BYTES)
      await Promise.race([new Promise((drained) => packer.once('drain', drained)), failed])
}

export async function writeResultsFile(plan: ResultsPlan, path: string): Promise<void> {
  await writeWorkbookFile(path, RESULTS_BOOK, async (writer, failed) => {
    const sheet = writer.addWorksheet('Results', { views: [{ state: 'frozen', ySplit: 1 }] })
    sheet.columns = plan.columns.map((c) => ({ header: cellSafeText(c.header), width: c.width }))
    sheet.getRow(1).font = { bold: true }
    for await (const line of rowsOf(plan.rowsFile)) {
      const row = sheet.addRow(line.cells.map(safe))
      if (line.badCell !== undefined)
        row.getCell(line.badCell).font = { color: { argb: 'FF9C0006' }, bold: true }
      for (const column of line.linkCells ?? [])
        row.getCell(column).font = { color: { argb: 'FF0563C1' }, underline: true }
      row.commit()
      await packerCaughtUp(sheet, failed)
    }
    sheet.commit()
    const about = writer.addWorksheet('Run')
    about.columns = [
      { header: cellSafeText(plan.about.header[0]), width: 24 },
      { header: cellSafeText(plan.about.header[1]), width: 70 },
    ]
    about.getRow(1).font = { bold: true }
    for (const [label, value] of plan.about.lines) {
      const row = about.addRow([cellSafeText(label), safe(value)])
      if (value instanceof Date) row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm'
      row.commit()
    }
    about.commit()
  })
}
