/**
 * The limits the sandbox holds an uploaded workbook to, and the one error its readers throw when
 * a file breaks one or cannot be read. Its message goes back to the buyer as a file error of the
 * validation result, so it says what is wrong with the file and what to do.
 */
import { UserFacingError } from '../../shared/errors'

/** A spreadsheet's own size: columns A to XFD, rows 1 to 1,048,576. */
export const MAX_COLUMNS = 16_384
export const MAX_ROWS = 1_048_576
/** Characters of one csv record: an unclosed quote stops here instead of swallowing the file. */
export const MAX_CSV_RECORD_CHARS = 16 * 1024 * 1024
/** Bytes all the parts of an xlsx may unpack to together (a zip bomb stops here). */
export const MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024
/** Parts in an xlsx's zip directory. */
export const MAX_ZIP_ENTRIES = 100_000
/** File errors listed in an answer; the rest are counted in one line. */
export const MAX_FILE_ERRORS = 50
/** Row errors listed in an answer; the rest are counted in one line. */
export const MAX_ROW_ERRORS = 1000

/** How every message about a damaged spreadsheet ends. */
export const RESAVE = 'Open it in Excel or LibreOffice, save it again as .xlsx, and try again.'

export class WorkbookProblem extends UserFacingError {
  override name = 'WorkbookProblem'
  readonly category = 'bad-input' as const
  constructor(message: string) {
    // The message already ends with what to do: the answer carries it alone.
    super(message, '')
  }
}

export function fileNameOf(path: string): string {
  return path.split(/[\\/]/).pop() ?? path
}
