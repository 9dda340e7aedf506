/**
 * What only the whole of a column tells, kept while rows are read and settled at the end: the
 * order of its dates (date-order.ts), and the one value of a run-scoped field given as a column.
 */
import type { SchemaField } from '../../../shared/contract'
import type { CellProblem, CellValue, WireValue } from '../../../shared/input-schema'
import { DateOrders } from './date-order'
import { dateInOrder, type RowPatch } from './row-spill'
import { runValuePatch } from './run-values'

/**
 * A run-scoped field given as a column of the sheet: one value in every row is the run's value
 * (said); rows that differ are a problem, since one run takes one value.
 */
export class RunColumns {
  private readonly seen = new Map<
    string,
    { text: string; rowNumber: number; differs: { text: string; rowNumber: number } | null }
  >()

  /** A checked value of a row's cell (only run-scoped fields are kept). */
  see(field: SchemaField, value: WireValue, rowNumber: number): void {
    if (field.scope !== 'run') return
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    const first = this.seen.get(field.key)
    if (!first) this.seen.set(field.key, { text, rowNumber, differs: null })
    else if (!first.differs && first.text !== text) first.differs = { text, rowNumber }
  }

  settle(
    fields: ReadonlyMap<string, SchemaField>,
    notice: (message: string) => void,
    fileError: (message: string) => void,
  ): void {
    for (const [key, { text, rowNumber, differs }] of this.seen) {
      const name = fields.get(key)?.label || key
      if (!differs) {
        notice(
          `“${name}” is ${text} in every row: that is the run's value (it applies to the whole run).`,
        )
        continue
      }
      fileError(
        `“${name}” applies to the whole run, so it takes one value, but row ${rowNumber} holds ${text} and row ${differs.rowNumber} holds ${differs.text}. Keep one value in every row (or leave the column out and give the value for the run) and check again.`,
      )
    }
  }
}

export class WholeColumns {
  private readonly dates = new DateOrders()
  private readonly run = new RunColumns()

  constructor(private readonly fields: ReadonlyMap<string, SchemaField>) {}

  /** checkCell's answer for a row's cell (see DateOrders.check). */
  check(
    field: SchemaField,
    cell: CellValue,
    rowNumber: number,
  ): WireValue | undefined | CellProblem {
    return this.dates.check(field, cell, rowNumber)
  }

  /** A row's checked value, as it goes into the row. */
  see(field: SchemaField, value: WireValue, rowNumber: number): void {
    this.run.see(field, value, rowNumber)
  }

  /**
   * At the end of the read: what every row is given (dates read in their column's order, run
   * values), all said. `first`: each run-scoped field's first value in a row, as read.
   */
  settle(
    first: ReadonlyMap<string, WireValue>,
    runValues: Map<string, CellValue>,
    said: { notices: string[]; fileError(message: string): void },
  ): RowPatch {
    const notice = (message: string) => said.notices.push(message)
    const fileError = (message: string) => said.fileError(message)
    const dates = this.dates.settle(this.fields, notice, fileError)
    this.run.settle(this.fields, notice, fileError)
    const order = new Map(dates)
    const firstPatched = new Map(
      [...first].map(([key, value]) => {
        const dateOrder = order.get(key)
        return [key, (dateOrder ? dateInOrder(value, dateOrder) : value) as WireValue]
      }),
    )
    return { dates, ...runValuePatch(this.fields.values(), firstPatched, runValues, fileError) }
  }
}
