/**
 * The fast xlsx reader (workbook.ts) for callers that hold a path or bytes rather than an open
 * file: each call opens the file, reads within the same limits as the check, and closes it
 * again, so nothing stays open between calls.
 */
import { baseName, openByteSource, sourceName } from '../../byte-source'
import { openXlsxZip, type XlsxSheet, type XlsxWorkbook } from './workbook'
import { openZip } from './zip'

export type XlsxSource = { path: string } | { bytes: Uint8Array }

async function withWorkbook<T>(
  source: XlsxSource,
  use: (book: XlsxWorkbook) => Promise<T>,
): Promise<T> {
  const named = 'path' in source ? source : { bytes: source.bytes, filename: 'workbook.xlsx' }
  const bytes = await openByteSource(named)
  let book: XlsxWorkbook | undefined
  try {
    book = await openXlsxZip(await openZip(bytes), baseName(sourceName(named)))
    return await use(book)
  } finally {
    await book?.close()
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
    // Each read above opens the file and lets it go again.
    close: async () => {},
  }
}
