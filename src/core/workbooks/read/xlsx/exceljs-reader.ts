/**
 * The general xlsx reader: exceljs's streaming reader, for zips the fast reader cannot place
 * (no workbook part where the relationships say) and for comparison in tests. It only ever sees
 * a file whose every zip entry was first unpacked within the limits (verifyZip below), since
 * exceljs itself unpacks without a cap.
 */
import { Readable } from 'node:stream'
import type { CellValue } from '../../../../shared/input-schema'
import type { ByteSource } from '../../byte-source'
import { MAX_SHEET_BYTES, MAX_ROWS, MAX_COLUMNS, RESAVE, WorkbookFileError } from '../../limits'
import { loadExcelJs } from '../../load-exceljs'
import { isStreamedInputSheet, sameSheetName, SHEETS } from '../../sheets'
import type { Collector } from '../../validate/collector'
import { serialValue } from './dates'
import { builtinKind, formatKind } from './styles'
import type { Zip } from './zip'

const ISO_DATE_CELL = [Buffer.from('t="d"'), Buffer.from("t='d'")]

/**
 * Unpacks every entry (discarding the bytes) so that none is a bomb; throws a file error if one
 * is. A sheet with ISO date cells (t="d", as Strict workbooks hold dates) is refused too:
 * exceljs reads their text as a number (2009-01-01 as 2009, a day in 1905), silently wrong.
 */
export async function verifyZip(zip: Zip, maxTotalBytes = MAX_SHEET_BYTES): Promise<void> {
  let total = 0
  for (const entry of zip.entries) {
    if (entry.name.endsWith('/')) continue
    const sheet = /worksheets\//i.test(entry.name)
    let tail: Buffer = Buffer.alloc(0)
    for await (const chunk of zip.inflate(entry, maxTotalBytes - total)) {
      total += chunk.length
      if (!sheet) continue
      // The last bytes of the chunk before and the first of this one: a mark cut in two.
      const seam = Buffer.concat([tail, chunk.subarray(0, 4)])
      if (ISO_DATE_CELL.some((mark) => chunk.includes(mark) || seam.includes(mark)))
        throw new WorkbookFileError(
          `The workbook holds dates as ISO text (as “Strict Open XML” files do), which this reader cannot read. Save it in Excel as “Excel Workbook (.xlsx)”, not Strict, and try again.`,
        )
      tail = chunk.subarray(Math.max(0, chunk.length - 4))
    }
  }
}

/** A byte source as the stream exceljs reads. */
export function streamOfBytes(bytes: ByteSource): Readable {
  return Readable.from(bytes.chunks(0, bytes.size))
}

/** An exceljs cell value as what the user sees; for links in url/file fields, the target. */
export function unwrap(value: unknown, preferLink: boolean): CellValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    if (Array.isArray(v.richText))
      return (v.richText as { text?: unknown }[]).map((r) => String(r.text ?? '')).join('')
    if ('hyperlink' in v) {
      const text = unwrap(v.text, false)
      if (preferLink && typeof v.hyperlink === 'string' && /^https?:/i.test(v.hyperlink))
        return v.hyperlink
      return text ?? (typeof v.hyperlink === 'string' ? v.hyperlink : null)
    }
    if ('result' in v) return unwrap(v.result, preferLink)
    if ('formula' in v || 'sharedFormula' in v) return null
    if ('error' in v) return String(v.error)
  }
  return String(value)
}

const DAY_MS = 86_400_000

/**
 * Two built-in formats whose text in exceljs reads otherwise than Excel shows them (18 shows
 * seconds, 22 a time of day too): taken by their number, as the fast reader takes them.
 */
const BUILTIN_TEXTS: ReadonlyMap<string, number> = new Map([
  ['h:mm AM/PM', 18],
  ['m/d/yy "h":mm', 22],
])

/**
 * A date exceljs made of a number cell with a date or time format, as the fast reader shows that
 * number (serialValue): a time of day or a duration is a time ("14:30"), not a date in 1899,
 * and a date format shows the day. exceljs keeps no more of the cell's style than its format's
 * text, so the number is taken back from the date as exceljs made it.
 */
export function shownAsFormatted(date: Date, numFmt: unknown, date1904: boolean): CellValue {
  if (typeof numFmt !== 'string') return date
  const builtin = BUILTIN_TEXTS.get(numFmt)
  const kind = builtin === undefined ? formatKind(numFmt) : builtinKind(builtin)
  return serialValue(25569 + date.getTime() / DAY_MS - (date1904 ? 1462 : 0), kind, date1904)
}

interface ExceljsRow {
  number: number
  values: unknown[]
  getCell(column: number): { numFmt?: unknown }
}

/** exceljs's streaming reader over a workbook's bytes. */
export async function exceljsSheets(stream: Readable, styles: 'cache' | 'ignore') {
  const excel = await loadExcelJs()
  return new excel.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'cache',
    styles,
    entries: 'ignore',
  }) as unknown as AsyncIterable<AsyncIterable<ExceljsRow> & { name?: string; state?: string }> & {
    /** The workbook's properties, once its part is read (exceljs's own date1904 is there). */
    properties?: { model?: { date1904?: boolean } }
  }
}

function checkRow(number: number, width: number) {
  if (number > MAX_ROWS || width > MAX_COLUMNS + 1)
    throw new WorkbookFileError(
      `The workbook has a cell beyond the last row or column a spreadsheet can have. ${RESAVE}`,
    )
}

/**
 * Feeds the workbook's sheets to the collector (the input sheet: the one `wanted` names, else
 * the first that may hold rows); answers the names of the worksheets it held. exceljs's stream
 * keeps no row's hidden mark, so hidden rows are read as any other here.
 */
export async function readXlsxWithExceljs(
  bytes: ByteSource,
  collector: Collector,
  wanted?: string,
): Promise<{ worksheets: string[] }> {
  let inputTaken = false
  const worksheets: string[] = []
  const reader = await exceljsSheets(streamOfBytes(bytes), 'cache')
  /** A cell as the fast reader reads it (see shownAsFormatted). */
  const cell = (row: ExceljsRow, column: number, preferLink: boolean) => {
    const value = unwrap(row.values[column], preferLink)
    if (!(value instanceof Date)) return value
    const date1904 = reader.properties?.model?.date1904 === true
    return shownAsFormatted(value, row.getCell(column).numFmt, date1904)
  }
  for await (const ws of reader) {
    worksheets.push(ws.name ?? '')
    const name = (ws.name ?? '').trim().toLowerCase()
    const isInput =
      wanted === undefined
        ? isStreamedInputSheet(name, ws.state, inputTaken)
        : !inputTaken && sameSheetName(name, wanted)
    if (isInput) {
      inputTaken = true
      collector.sheetRead = { sheet: ws.name ?? '' }
      for await (const row of ws) {
        const values = row.values
        checkRow(row.number, values.length)
        const cells: CellValue[] = []
        for (let i = 1; i < values.length; i += 1)
          cells.push(cell(row, i, collector.headerDone && collector.preferLink(i - 1)))
        collector.row(cells, row.number)
      }
    } else if (name === SHEETS.mapping.toLowerCase() && !inputTaken) {
      for await (const row of ws)
        collector.mappingRow(row.values.slice(1, 4).map((v) => unwrap(v, false)))
    } else if (name === SHEETS.run.toLowerCase()) {
      for await (const row of ws) {
        if (row.number === 1) continue
        const label = unwrap(row.values[1], false)
        const key = unwrap(row.values[3], false)
        const value = cell(row, 2, true)
        collector.runValue(String(key ?? label ?? ''), value)
      }
    } else {
      // Other sheets are read past (the streaming reader needs each one consumed).
      for await (const _row of ws) void _row
    }
  }
  return { worksheets }
}
