/**
 * The fast xlsx reader (xlsx.ts) for callers that hold a path or bytes rather than an open
 * file: each call opens the file, reads within the same limits as the check, and closes it
 * again, so nothing stays open between calls.
 */
import { openByteSource, sourceName, type ByteSource } from './source'
import { openXlsx as openXlsxZip, type XlsxSheet, type XlsxWorkbook } from './xlsx'
import { openZip } from './zip'

export { XlsxUnsupported, type XlsxSheet, type XlsxWorkbook } from './xlsx'

export type XlsxSource = { path: string } | { bytes: Uint8Array }

async function withWorkbook<T>(
  source: XlsxSource,
  use: (book: XlsxWorkbook) => Promise<T>,
): Promise<T> {
  const named = 'path' in source ? source : { bytes: source.bytes, filename: 'workbook.xlsx' }
  const bytes: ByteSource = await openByteSource(named)
  try {
    const name = sourceName(named).split(/[\\/]/).pop() ?? ''
    return await use(await openXlsxZip(await openZip(bytes), name))
  } finally {
    await bytes.close()
  }
}

export async function openXlsx(source: XlsxSource): Promise<XlsxWorkbook> {
  const sheets = await withWorkbook(source, async (book) => book.sheets)
  return {
    sheets,
    rows: (sheet: XlsxSheet, each) =>
      withWorkbook(source, async (book) => {
        const same = book.sheets.find((s) => s.part === sheet.part) ?? sheet
        await book.rows(same, each)
      }),
  }
}
