/**
 * An xlsx workbook's rows to the Collector: the hidden mapping sheet first, then the input
 * sheet (a linked cell in a url or file column means its link), then the Run settings sheet.
 * A zip the fast reader cannot place goes to exceljs's reader instead.
 */
import type { ByteSource } from '../../byte-source'
import { noSheetError, WorkbookFileError } from '../../limits'
import { sameSheetName, SHEETS } from '../../sheets'
import { chooseSheet, noSuchSheet } from './choose-sheet'
import type { Collector } from '../../validate/collector'
import { readXlsxWithExceljs, verifyZip } from './exceljs-reader'
import { openXlsxZip, XlsxUnsupported, type XlsxWorkbook } from './workbook'
import type { Zip } from './zip'

export async function readWithExceljs(
  zip: Zip,
  bytes: ByteSource,
  fileName: string,
  collector: Collector,
  wanted?: string,
) {
  await verifyZip(zip)
  const { worksheets } = await readXlsxWithExceljs(bytes, collector, wanted)
  if (worksheets.length === 0) throw noSheetError(fileName)
  if (wanted !== undefined && !collector.sheetRead) throw noSuchSheet(fileName, wanted, worksheets)
}

const web = (link: string | undefined) => (link && /^https?:/i.test(link) ? link : undefined)

export async function readXlsx(
  zip: Zip,
  bytes: ByteSource,
  fileName: string,
  collector: Collector,
  wanted?: string,
) {
  let book: XlsxWorkbook
  try {
    book = await openXlsxZip(zip, fileName)
  } catch (error) {
    if (error instanceof XlsxUnsupported)
      return readWithExceljs(zip, bytes, fileName, collector, wanted)
    throw error
  }
  try {
    await readBook(book, fileName, collector, wanted)
  } finally {
    await book.close()
  }
}

async function readBook(
  book: XlsxWorkbook,
  fileName: string,
  collector: Collector,
  wanted: string | undefined,
) {
  const named = (name: string) => book.sheets.find((s) => sameSheetName(s.name, name))
  const mapping = named(SHEETS.mapping)
  if (mapping) await book.rows(mapping, (cells) => collector.mappingRow(cells.slice(0, 3)))
  const input = await chooseSheet(book, collector, fileName, wanted)
  if (input === null) return
  if (!input) {
    if (!book.sheets.some((s) => s.kind === 'worksheet')) throw noSheetError(fileName)
    throw new WorkbookFileError(
      `“${fileName}” has no visible sheet with rows (only charts or hidden sheets). Put the rows on a visible sheet, save, and try again.`,
    )
  }
  await book.rows(input, (cells, rowNumber, links, hidden) => {
    // In url and file columns, a linked cell means its link, not the words shown.
    if (links && collector.headerDone)
      for (const [column, link] of links)
        if (collector.preferLink(column) && web(link)) cells[column] = link
    collector.row(cells, rowNumber, hidden)
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
