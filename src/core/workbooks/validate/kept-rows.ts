/**
 * The rows a read keeps for sending: in memory, or written to a spill file as they are checked
 * (row-spill.ts), with each one's sheet row, its row in the user's own sheet (source-rows.ts)
 * and, when asked, its cells as typed. What the whole sheet decides (a RowPatch) is given to the
 * rows kept in memory at the end, and to a spill's rows as they are read back.
 */
import type { InputRow, SchemaField } from '../../../shared/contract'
import type { CellValue, WireValue } from '../../../shared/input-schema'
import { cellTexts } from './aside-rows'
import type { ReadResult } from './read-result'
import { NO_PATCH, patchRow, type RowPatch, type SpillWriter } from './row-spill'
import { SourceRows } from './source-rows'

export class KeptRows {
  readonly rows: InputRow[] = []
  readonly rowNumbers: number[] = []
  readonly cells: string[][] = []
  /** The user's own sheet rows behind a set-aside workbook's rows. */
  readonly sourceRows = new SourceRows()
  /** Each run-scoped field's first value in a row (its value for the rows without one). */
  private readonly firstRunValues = new Map<string, WireValue>()
  private readonly runKeys: string[]
  private patch: RowPatch | null = null

  constructor(
    fields: Iterable<SchemaField>,
    private readonly keepCells: boolean,
    /** Where the rows go instead of `rows` (ReadOptions.spill). */
    private readonly spill: SpillWriter | null,
  ) {
    this.runKeys = [...fields].filter((f) => f.scope === 'run').map((f) => f.key)
  }

  /** A checked row; one set aside is not written to the spill (it is never sent from there). */
  keep(row: InputRow, cells: CellValue[], rowNumber: number, sheetRow: number, aside: boolean) {
    for (const key of this.runKeys)
      if (row[key] !== undefined && !this.firstRunValues.has(key))
        this.firstRunValues.set(key, row[key] as WireValue)
    if (!this.spill) this.rows.push(row)
    else if (!aside) this.spill.add(row)
    this.rowNumbers.push(rowNumber)
    this.sourceRows.keep(sheetRow)
    if (this.keepCells) this.cells.push(cellTexts(cells, this.sourceRows.ownWidth))
  }

  get firstValues(): ReadonlyMap<string, WireValue> {
    return this.firstRunValues
  }

  /** What the whole sheet decided, given to every row kept (a spill's, as it is read back). */
  settle(patch: RowPatch) {
    this.patch = patch
    if (patch.dates.length + patch.fill.length + patch.set.length === 0) return
    for (const row of this.rows) patchRow(row, patch)
  }

  /** The rows for the result: in `rows`, or where the spill holds them. */
  result(): Pick<ReadResult, 'rows' | 'rowNumbers' | 'spill'> {
    if (!this.spill) return { rows: this.rows, rowNumbers: this.rowNumbers }
    const spill = this.spill.close(this.patch ?? NO_PATCH)
    return { rows: [], rowNumbers: this.rowNumbers, spill }
  }
}
