/**
 * Reads an input workbook (xlsx or csv) row by row and checks every cell against the template's
 * schema, without holding the workbook in memory. This file only decides which reader a file
 * goes to; each format's quirks live in its own folder (csv/, xlsx/, with exceljs's reader as
 * the xlsx fallback), and all of them feed the same rows to the Collector (validate/).
 *
 * A file is hostile until read: every limit (limits.ts) ends in one clear file error, never in
 * a crash, a hang or unbounded memory, and no internal message reaches the user.
 */
import { extname } from 'node:path'
import type { ListingInputSchema } from '../../../shared/contract'
import {
  baseName,
  isZip,
  openByteSource,
  sourceName,
  type ByteSource,
  type WorkbookSource,
} from '../byte-source'
import { RESAVE, WorkbookFileError } from '../limits'
import { Collector } from '../validate/collector'
import { SpillWriter } from '../validate/row-spill'
import type { ReadOptions, ReadResult } from '../validate/read-result'
import { describeCsv, readCsvBytes } from './csv/read-csv'
import { xlsxAndWriters } from '../on-demand'

/** The first bytes of an OLE compound file (old .xls, or an encrypted workbook). */
const OLE = [0xd0, 0xcf, 0x11, 0xe0] as const
const CSV_EXTENSIONS: ReadonlySet<string> = new Set(['.csv', '.txt', '.tsv', '.tab'])

/**
 * What a file is, by its first bytes and then its name: an OLE compound file (old .xls or an
 * encrypted workbook), a zip (xlsx), a csv, or none of these. The bytes win over the name.
 */
export function fileKind(head: Uint8Array, name: string): 'ole' | 'zip' | 'csv' | 'unknown' {
  if (OLE.every((b, i) => head[i] === b)) return 'ole'
  if (isZip(head)) return 'zip'
  return CSV_EXTENSIONS.has(extname(name).toLowerCase()) ? 'csv' : 'unknown'
}

export async function readInputWorkbook(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const spill =
    options.spill && options.keepRows !== false ? new SpillWriter(options.spill.path) : undefined
  let result: ReadResult
  try {
    result = await readAside(source, schema, options, spill)
  } catch (error) {
    spill?.abandon()
    throw error
  }
  if (!result.spill) return result
  // Rows that cannot be sent are not kept: the file goes.
  if (result.valid && result.rowNumbers.length > 0) return result
  spill!.abandon()
  const { spill: _dropped, ...kept } = result
  return kept
}

async function readAside(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ReadOptions,
  spill: SpillWriter | undefined,
): Promise<ReadResult> {
  if (!options.setAside)
    return readInto(new Collector(schema, source, options, undefined, spill), source, options)
  // The rows with problems go to the workbook to fix as they are read; it is kept only when
  // the result says they were set aside. Its writer loads here, as the xlsx reader does below:
  // a small csv checked from the command line never needs either.
  const { SetAsideWriter } = await xlsxAndWriters()
  const writer = await SetAsideWriter.open(options.setAside)
  let result: ReadResult
  try {
    result = await readInto(new Collector(schema, source, options, writer, spill), source, options)
  } catch (error) {
    await writer.abandon()
    throw error
  }
  if (result.setAside) await writer.close()
  else await writer.abandon()
  return result
}

async function readInto(
  collector: Collector,
  source: WorkbookSource,
  options: ReadOptions,
): Promise<ReadResult> {
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
    const kind = fileKind(await bytes.readAt(0, 8), name)
    if (kind === 'ole') {
      // An OLE compound file: Excel's encrypted workbooks and the old .xls format both are.
      return collector.fail(
        (await isEncryptedPackage(bytes))
          ? `“${baseName(name)}” is protected with a password to open. Open it in Excel, remove the password (File > Info > Protect Workbook), save, and try again.`
          : `“${baseName(name)}” is in the old Excel 97-2003 (.xls) format. Open it in Excel or LibreOffice, save it as .xlsx, and try again.`,
      )
    }
    if (kind === 'zip') {
      const { openZip, readWithExceljs, readXlsx } = await xlsxAndWriters()
      const zip = await openZip(bytes)
      if (options.xlsxReader === 'exceljs')
        await readWithExceljs(zip, bytes, baseName(name), collector, options.sheet)
      else await readXlsx(zip, bytes, baseName(name), collector, options.sheet)
    } else if (kind === 'csv') {
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
