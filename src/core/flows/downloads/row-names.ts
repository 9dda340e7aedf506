/**
 * A downloaded file's name, in the row numbering of its folder. A service names a row's files by
 * its own count ("row-1.json" for the first row it was sent), while the folder is named by the
 * row's number in the user's sheet ("row-002"): the same row would be called 1 in the file and 2
 * in the folder. Where the name carries the row's position in the submission (1-based, or the
 * 0-based sourceRowIndex itself), that number becomes the sheet's row number too.
 */
import { rowNumberOf, type RowNumbering } from '../../../shared/format'

export function nameInSheetRows(
  name: string,
  numbering: RowNumbering | null | undefined,
  index: number,
): string {
  if (numbering?.source !== 'spreadsheet' || index < 0) return name
  const sheetRow = rowNumberOf(numbering, index)
  // "row-1", "row_1", "row 1", "Row1": the word row, then the position, no digit after it.
  return name.replace(/(^|[^a-z0-9])(row[-_ ]?)0*(\d+)(?!\d)/gi, (whole, before, word, digits) => {
    const position = Number(digits)
    return position === index + 1 || position === index ? `${before}${word}${sheetRow}` : whole
  })
}
