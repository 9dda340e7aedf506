/**
 * The rows of the user's own sheet behind a set-aside workbook: write/set-aside.ts keeps each
 * row's sheet row in a hidden column, and a fixed workbook dropped again gives them back here
 * (ReadResult.sourceRows), so what follows its rows can name them as the user's sheet does.
 * The file is hostile and a user may have typed in that column: a value that is not a whole
 * number from 2 to a sheet's last row, or one an earlier row already gave, says nothing (0), and
 * so does every row of a set-aside workbook without the column (a Problem column only: one made
 * before the column was, or the column deleted), whose own rows are not the user's sheet's.
 */
import { isBlank, type CellValue } from '../../../shared/input-schema'
import { isSetAsideColumn, SET_ASIDE_SHEET_ROW } from '../mapping/header-mapping'
import { cellText } from '../sheets'
import type { ReadResult } from './read-result'

/** The last row a spreadsheet can have (Excel's). */
const LAST_SHEET_ROW = 1_048_576
const DIGITS = /^\d{1,7}$/

/** A sheet row number as written in the column, or 0 when the cell is not one. */
function sheetRowIn(cell: CellValue | undefined): number {
  let n = Number.NaN
  if (typeof cell === 'number') n = cell
  else if (typeof cell === 'string' && DIGITS.test(cell.trim())) n = Number(cell.trim())
  return Number.isInteger(n) && n >= 2 && n <= LAST_SHEET_ROW ? n : 0
}

/** Finds the hidden column in a header and reads it in every data row. One per read. */
export class SourceRows {
  /** Whether the sheet is a set-aside workbook (it has a column one adds). */
  private setAside = false
  /** The hidden column's index; -1 in a sheet without it. */
  private column = -1
  /** The sheet rows given so far, one bit each (made only for a sheet with the column). */
  private given: Uint8Array | null = null
  /** Of each kept row, its row in the user's sheet (0: not known); in a set-aside workbook only. */
  private readonly kept: number[] = []
  /** The header's columns up to the ones a set-aside workbook adds at its end: the user's. */
  ownWidth = 0

  /**
   * The header row: answers the indexes of the columns a set-aside workbook adds (its Problem
   * and Sheet row columns), none of them the user's, and notes where the Sheet row column is.
   */
  header(cells: CellValue[]): Set<number> {
    const added = new Set<number>()
    cells.forEach((cell, i) => {
      const text = isBlank(cell) ? '' : cellText(cell).trim()
      if (!isSetAsideColumn(text)) return
      added.add(i)
      if (text === SET_ASIDE_SHEET_ROW && this.column < 0) this.column = i
    })
    this.setAside = added.size > 0
    this.ownWidth = cells.length
    while (added.has(this.ownWidth - 1)) this.ownWidth -= 1
    if (this.column >= 0) this.given = new Uint8Array((LAST_SHEET_ROW >> 3) + 1)
    return added
  }

  /**
   * The row in the user's own sheet of a data row at `rowNumber`: that row itself in the user's
   * own sheet; in a set-aside workbook the column's value, or 0 when it says nothing (see above).
   */
  of(cells: CellValue[], rowNumber: number): number {
    if (!this.setAside) return rowNumber
    if (!this.given) return 0
    const n = sheetRowIn(cells[this.column])
    if (n === 0) return 0
    const bit = 1 << (n & 7)
    if (this.given[n >> 3]! & bit) return 0
    this.given[n >> 3]! |= bit
    return n
  }

  /** A row kept for the result, with what `of` answered for it. */
  keep(sheetRow: number): void {
    if (this.setAside) this.kept.push(sheetRow)
  }

  /** The result's `sourceRows`, for a set-aside workbook only. */
  result(): Pick<ReadResult, 'sourceRows'> {
    return this.setAside ? { sourceRows: this.kept } : {}
  }
}
