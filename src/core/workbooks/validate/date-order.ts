/**
 * The order of dates like 03/04/2026 in a date column, decided by the whole column: a cell whose
 * first number is above 12 shows that the day comes first, one whose second number is above 12
 * that the month does. A cell that could be either, met before the column has told, is kept as
 * written and read in the column's order when the read ends; a column that never tells is asked
 * about, once; a cell against the column's order is a problem of its own.
 */
import type { SchemaField } from '../../../shared/contract'
import {
  CellProblem,
  checkCell,
  orderShown,
  yearLastDate,
  type CellValue,
  type DateOrder,
  type WireValue,
} from '../../../shared/input-schema'

interface ColumnDates {
  order: DateOrder | null
  /** The cell that told the order, as written, and its row. */
  told: { text: string; rowNumber: number } | null
  /** The first cell kept until the order is known, and how many there are. */
  waiting: { text: string; rowNumber: number } | null
  waitingCount: number
}

const WORDS: Record<DateOrder, string> = {
  'day-first': 'the day first',
  'month-first': 'the month first',
}

export class DateOrders {
  private readonly columns = new Map<string, ColumnDates>()

  /** checkCell's answer for the cell, learning the column's order from it. */
  check(
    field: SchemaField,
    cell: CellValue,
    rowNumber: number,
  ): WireValue | undefined | CellProblem {
    if (field.type !== 'date') return checkCell(field, cell)
    const date = typeof cell === 'string' ? yearLastDate(cell) : null
    if (!date || field.multiValue)
      return checkCell(field, cell, this.columns.get(field.key)?.order ?? undefined)
    const column = this.column(field.key)
    const text = cell as string
    const shown = orderShown(date)
    if (shown && column.order && shown !== column.order)
      return new CellProblem(
        `'${text.trim()}' has ${WORDS[shown]}, but '${column.told!.text}' in row ${column.told!.rowNumber} has ${WORDS[column.order]}: write every date of the column the same way`,
      )
    if (shown && !column.order) {
      column.order = shown
      column.told = { text: text.trim(), rowNumber }
    }
    if (shown || column.order || date.first === date.second || date.first > 12 || date.second > 12)
      return checkCell(field, cell, column.order ?? undefined)
    column.waiting ??= { text: text.trim(), rowNumber }
    column.waitingCount += 1
    return text.trim()
  }

  /**
   * At the end of the read: the columns whose cells kept as written are read in their order
   * (each row is given it: row-spill.ts's patchRow), which is said; a column that never told is
   * a problem of the file.
   */
  settle(
    fields: ReadonlyMap<string, SchemaField>,
    notice: (message: string) => void,
    fileError: (message: string) => void,
  ): [string, DateOrder][] {
    const reorder: [string, DateOrder][] = []
    for (const [key, column] of this.columns) {
      const name = fields.get(key)?.label || key
      const { order, told, waiting } = column
      if (order && told)
        notice(
          `Dates in “${name}” are read with ${WORDS[order]}, as '${told.text}' in row ${told.rowNumber} shows.`,
        )
      if (!waiting) continue
      if (!order) {
        fileError(
          `“${name}”: dates such as '${waiting.text}' (row ${waiting.rowNumber}${column.waitingCount > 1 ? ` and ${column.waitingCount - 1} more` : ''}) could have the day or the month first, and no date in the column tells which. Write them year first (for example 2026-12-24) and check again.`,
        )
        continue
      }
      reorder.push([key, order])
    }
    return reorder
  }

  private column(key: string): ColumnDates {
    let column = this.columns.get(key)
    if (!column) {
      column = { order: null, told: null, waiting: null, waitingCount: 0 }
      this.columns.set(key, column)
    }
    return column
  }
}
