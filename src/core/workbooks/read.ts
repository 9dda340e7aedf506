/**
 * Reads an input workbook (xlsx or csv) row by row and checks every cell against the template's
 * schema, without holding the workbook in memory. This file only decides which reader a file
 * goes to; each format's quirks live in its own module (csv.ts, xlsx.ts, xlsx-exceljs.ts), and
 * all of them feed the same rows to the column mapping (columns.ts).
 *
 * A file is hostile until read: every limit (limits.ts) ends in one clear file error, never in
 * a crash, a hang or unbounded memory, and no internal message reaches the user.
 */
import { extname } from 'node:path'
import type { ListingInputSchema } from '../../shared/contract'
import {
  chooseInputSheet,
  Collector,
  sameSheetName,
  SHEETS,
  type ReadOptions,
  type ReadResult,
} from './columns'
import { describeCsv, readCsvBytes } from './csv'
import { RESAVE, WorkbookFileError } from './limits'
import {
  baseName,
  openByteSource,
  sourceName,
  type ByteSource,
  type WorkbookSource,
} from './source'
import { openXlsx, XlsxUnsupported } from './xlsx'
import { readXlsxWithExceljs, verifyZip } from './xlsx-exceljs'
import { isZip, openZip, type Zip } from './zip'

export {
  cellText,
  chooseInputSheet,
  columnLetter,
  isStreamedInputSheet,
  SHEETS,
  type ErrorCell,
  type ReadOptions,
  type ReadResult,
  type RowSink,
} from './columns'
export { readCsv } from './csv'
export { WorkbookFileError } from './limits'
export type { WorkbookSource } from './source'

const OLE = [0xd0, 0xcf, 0x11, 0xe0]
const CSV_EXTENSIONS = new Set(['.csv', '.txt', '.tsv', '.tab'])

export async function readInputWorkbook(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const collector = new Collector(schema, source, options)
  const name = sourceName(source)
  let bytes: ByteSource
  try {
    bytes = await openByteSource(source)
  } catch (error) {
    return collector.fail(messageOf(error))
  }
  try {
    if (bytes.size === 0)
      return collector.fail('The file is empty. Fill in the workbook and save it again.')
    const head = await bytes.readAt(0, 8)
    const ext = extname(name).toLowerCase()
    if (OLE.every((b, i) => head[i] === b)) {
      // An OLE compound file: Excel's encrypted workbooks and the old .xls format both are.
      return collector.fail(
        (await isEncryptedPackage(bytes))
          ? `“${baseName(name)}” is protected with a password to open. Open it in Excel, remove the password (File > Info > Protect Workbook), save, and try again.`
          : `“${baseName(name)}” is in the old Excel 97-2003 (.xls) format. Open it in Excel or LibreOffice, save it as .xlsx, and try again.`,
      )
    }
    if (isZip(head)) {
      const zip = await openZip(bytes)
      if (options.xlsxReader === 'exceljs') await readWithExceljs(zip, bytes, collector)
      else await readXlsx(zip, bytes, baseName(name), collector)
    } else if (CSV_EXTENSIONS.has(ext)) {
      const info = await readCsvBytes(bytes, name, collector)
      collector.notices.push(describeCsv(info))
    } else {
      return collector.fail(
        `“${baseName(name)}” is not a spreadsheet this app can read. Save it as .xlsx (Excel workbook) or .csv and try again.`,
      )
    }
  } catch (error) {
    return collector.fail(messageOf(error))
  } finally {
    await bytes.close()
  }
  return collector.finish()
}

/** The user's message for a failure: a file error as it is; anything else never raw. */
function messageOf(error: unknown): string {
  if (error instanceof WorkbookFileError) return error.message
  return `The workbook could not be read: its contents are not laid out the way spreadsheet programs write them. ${RESAVE}`
}

/** Whether an OLE compound file holds an encrypted workbook (its "EncryptionInfo" stream). */
async function isEncryptedPackage(bytes: ByteSource): Promise<boolean> {
  const marker = Buffer.from('EncryptionInfo', 'utf16le')
  // The directory of a small compound file sits near its start; 1 MB covers it.
  return (await bytes.readAt(0, 1024 * 1024)).includes(marker)
}

async function readWithExceljs(zip: Zip, bytes: ByteSource, collector: Collector) {
  await verifyZip(zip)
  await readXlsxWithExceljs(bytes, collector)
}

async function readXlsx(zip: Zip, bytes: ByteSource, fileName: string, collector: Collector) {
  let book
  try {
    book = await openXlsx(zip, fileName)
  } catch (error) {
    if (error instanceof XlsxUnsupported) return readWithExceljs(zip, bytes, collector)
    throw error
  }
  const named = (name: string) => book.sheets.find((s) => sameSheetName(s.name, name))
  const mapping = named(SHEETS.mapping)
  if (mapping) await book.rows(mapping, (cells) => collector.mappingRow(cells.slice(0, 3)))
  const input = chooseInputSheet(book.sheets)
  if (!input) {
    throw new WorkbookFileError(
      book.sheets.length === 0
        ? `“${fileName}” has no sheets this app can read. ${RESAVE}`
        : `“${fileName}” has no visible sheet with rows (only charts or hidden sheets). Put the rows on a visible sheet, save, and try again.`,
    )
  }
  const web = (link: string | undefined) => (link && /^https?:/i.test(link) ? link : undefined)
  await book.rows(input, (cells, rowNumber, links) => {
    // In url and file columns, a linked cell means its link, not the words shown.
    if (links && collector.headerDone)
      for (const [column, link] of links)
        if (collector.preferLink(column) && web(link)) cells[column] = link
    collector.row(cells, rowNumber)
  })
  const run = named(SHEETS.run)
  if (run) {
    await book.rows(run, (cells, rowNumber, links) => {
      if (rowNumber === 1) return
      const [label, value, key] = cells
      collector.runValue(String(key ?? label ?? ''), web(links?.get(1)) ?? value ?? null)
    })
  }
}

/** The input sheet's name, read from the workbook's directory; null when that cannot be read. */
export async function inputSheetName(path: string): Promise<string | null> {
  let bytes: ByteSource | undefined
  try {
    bytes = await openByteSource({ path })
    const book = await openXlsx(await openZip(bytes), baseName(path))
    return chooseInputSheet(book.sheets)?.name ?? null
  } catch {
    return null
  } finally {
    await bytes?.close()
  }
}
