/**
 * validateWorkbook's reading of an uploaded file: which reader a file goes to (by its first
 * bytes, then its name), and the one answer for every way it can fail. A file is hostile until
 * read: whatever is wrong with it ends in a file error of the answer, never in a crash.
 */
import type { ListingInputSchema, WorkbookValidation } from '../../shared/contract'
import { readCsv } from './csv'
import { fileNameOf, RESAVE, WorkbookProblem } from './file-problem'
import { RowChecker } from './row-checker'
import { readXlsx } from './xlsx'

const CSV_NAME = /\.(csv|txt|tsv|tab)$/i

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte)
}

/** An old-style (OLE) file: an .xls, or an xlsx encrypted with a password to open. */
function oleProblem(bytes: Uint8Array, name: string): string {
  // An encrypted workbook names its "EncryptionInfo" stream near the start of the file.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024 * 1024))
  return head.includes(Buffer.from('EncryptionInfo', 'utf16le'))
    ? `“${name}” is protected with a password to open. Open it in Excel, remove the password (File > Info > Protect Workbook), save, and try again.`
    : `“${name}” is in the old Excel 97-2003 (.xls) format. Open it in Excel or LibreOffice, save it as .xlsx, and try again.`
}

export async function checkWorkbook(
  bytes: Uint8Array,
  fileName: string,
  schema: ListingInputSchema,
): Promise<WorkbookValidation> {
  const checker = new RowChecker(schema)
  const name = fileNameOf(fileName)
  try {
    if (bytes.length === 0)
      return checker.unreadable('The file is empty. Fill in the workbook and save it again.')
    if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]))
      return checker.unreadable(oleProblem(bytes, name))
    if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) await readXlsx(bytes, name, checker)
    else if (CSV_NAME.test(name)) readCsv(bytes, name, checker)
    else
      return checker.unreadable(
        `“${name}” is not a spreadsheet this app can read. Save it as .xlsx (Excel workbook) or .csv and try again.`,
      )
  } catch (error) {
    return checker.unreadable(
      error instanceof WorkbookProblem
        ? error.message
        : `The workbook could not be read: its contents are not laid out the way spreadsheet programs write them. ${RESAVE}`,
    )
  }
  return checker.result()
}
