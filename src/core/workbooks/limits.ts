/**
 * The limits every reader of a user's workbook checks before it allocates anything, and the one
 * error type they throw when a file breaks one. A limit hit is a problem with the file (a clear
 * file error for the user), never a crash: the dispatcher turns it into a file error and the
 * process goes on.
 */
import { UserFacingError } from '../errors'

/** Excel's own sheet size: columns A to XFD, rows 1 to 1,048,576. */
export const MAX_COLUMNS = 16_384
export const MAX_ROWS = 1_048_576

/** Unpacked size of the small parts (workbook, relationships, content types, styles). */
export const MAX_SMALL_PART_BYTES = 32 * 1024 * 1024
/** Unpacked size of the shared strings (they are kept in memory while the sheet is read). */
export const MAX_SHARED_STRINGS_BYTES = 256 * 1024 * 1024
/** Unpacked size of one sheet (streamed, so this bounds time rather than memory). */
export const MAX_SHEET_BYTES = 4 * 1024 * 1024 * 1024
/** Characters in one XML element the readers hold at once (one row, one shared string). */
export const MAX_ELEMENT_CHARS = 64 * 1024 * 1024
/** Entries in a zip directory. */
export const MAX_ZIP_ENTRIES = 100_000
/** Size of a zip's central directory read into memory. */
export const MAX_ZIP_DIRECTORY_BYTES = 32 * 1024 * 1024
/** File problems listed; the rest are counted in one last line. */
export const MAX_FILE_ERRORS = 50
/** Characters of one csv record (a quote that never closes stops here instead of eating the file). */
export const MAX_CSV_RECORD_CHARS = 16 * 1024 * 1024

/** A problem with the file a user gave us; its message is for them and says what to do. */
export class WorkbookFileError extends UserFacingError {
  override name = 'WorkbookFileError'
  readonly category = 'bad-input' as const
  constructor(message: string, nextStep = '') {
    super(message, nextStep)
  }
}

/** The end of every message about a damaged or hostile spreadsheet file. */
export const RESAVE = 'Open it in Excel or LibreOffice, save it again as .xlsx, and try again.'

/** A zip with no worksheet in it: whatever else it holds, it is no spreadsheet to read rows from. */
export function noSheetError(fileName: string): WorkbookFileError {
  return new WorkbookFileError(
    `“${fileName}” is not a spreadsheet with a sheet in it (it holds no worksheet). Check that it is the file you meant; if it is, open it in Excel or LibreOffice, save it again as .xlsx, and try again.`,
  )
}
