/**
 * What a sheet holds besides the rows to send, so that it is said and never sent by mistake:
 * rows hidden in the sheet, a total row under the rows, and empty rows among them. A pure
 * tally, fed by the Collector row by row, tested without any file.
 */
import { isBlank, type CellValue } from '../../../shared/input-schema'

const TOTAL_LABEL = /^(grand\s+|sub-?)?(total|totals|sum)\s*:?$/i
/** A number as a csv holds it: digits with separators, a sign, a currency or a percent. */
const NUMBER_TEXT = /^[-+(]?\s*[$€£¥]?\s*\d[\d.,\s]*\)?\s*%?$/
/** Hidden rows named in a notice; the rest are counted. */
const LISTED = 10

function isNumber(cell: CellValue): boolean {
  return typeof cell === 'number' || (typeof cell === 'string' && NUMBER_TEXT.test(cell.trim()))
}

/**
 * Whether a text cell is blank (isBlank's answer): the usual text, starting with a visible
 * ASCII character, is answered without trimming a copy of it.
 */
export function isBlankText(text: string): boolean {
  const first = text.charCodeAt(0)
  return first > 32 && first < 127 ? false : text.trim() === ''
}

/**
 * Whether a label may be a total's (TOTAL_LABEL's words all start with g, s or t): a label that
 * starts with any other visible ASCII character is answered without trimming and matching it.
 */
function mayBeTotalLabel(label: string): boolean {
  const first = label.charCodeAt(0)
  if (first <= 32 || first >= 127) return true
  const lower = first | 32
  return lower === 103 || lower === 115 || lower === 116
}

/**
 * A row that sums the rows above it: its first filled cell says Total, Sum or Grand total, and
 * every other filled cell is a number (a formula's result), at least one of them. Asked of
 * every row, so the usual row (its first cell no such label) is answered without a copy.
 */
export function isTotalRow(cells: CellValue[]): boolean {
  let first = 0
  while (first < cells.length && isBlank(cells[first])) first += 1
  const label = cells[first]
  if (typeof label !== 'string' || !mayBeTotalLabel(label) || !TOTAL_LABEL.test(label.trim()))
    return false
  const rest = cells.slice(first + 1).filter((cell) => !isBlank(cell))
  return rest.length > 0 && rest.every(isNumber)
}

/** Counts what the Collector read past below the header, and says it. */
export class RowTally {
  readonly hiddenRows: number[] = []
  totalRow: { rowNumber: number; label: string } | null = null
  emptyRows = 0
  private lastRow = 0
  private headerRow: { rowNumber: number; above: readonly number[] } | null = null

  /** The header's row, and the filled rows above it read past: empty rows are counted from here. */
  header(rowNumber: number, above: readonly number[] = []) {
    this.lastRow = rowNumber
    this.headerRow = { rowNumber, above }
  }

  /** A filled row below the header (sent or not): the empty rows above it were skipped. */
  seen(rowNumber: number) {
    if (rowNumber > this.lastRow + 1) this.emptyRows += rowNumber - this.lastRow - 1
    this.lastRow = Math.max(this.lastRow, rowNumber)
  }

  /** The notices for the user, in the order they read the sheet. */
  notices(): string[] {
    const out: string[] = []
    const above = this.headerRow?.above ?? []
    if (above.length > 0)
      out.push(
        `Row ${this.headerRow!.rowNumber} is taken as the header row: ${above.length === 1 ? `row ${above[0]} above it is` : `rows ${above.slice(0, LISTED).join(', ')}${above.length > LISTED ? ' and more' : ''} above it are`} read as a title or notes, not sent.`,
      )
    const hidden = this.hiddenRows
    if (hidden.length > 0) {
      const listed = hidden.slice(0, LISTED).join(', ')
      const more = hidden.length > LISTED ? ` and ${hidden.length - LISTED} more` : ''
      out.push(
        hidden.length === 1
          ? `Row ${listed} is hidden in the sheet, so it is not sent. Unhide it to send it.`
          : `Rows ${listed}${more} are hidden in the sheet, so they are not sent. Unhide them to send them.`,
      )
    }
    if (this.totalRow)
      out.push(
        `Row ${this.totalRow.rowNumber} is a total (“${this.totalRow.label}”), not a row to send: it is not sent.`,
      )
    if (this.emptyRows > 0)
      out.push(`${this.emptyRows} empty row${this.emptyRows === 1 ? '' : 's'} skipped.`)
    return out
  }
}
