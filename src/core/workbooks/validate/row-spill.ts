/**
 * The checked rows of a sheet kept on disk instead of in memory (ReadOptions.spill): each row, as
 * it is checked, goes to a file of JSON lines, and the read answers where each line starts, so
 * any run of rows is read back on its own (a part of a send) and the sheet's rows are never all
 * in memory at once. What only the whole sheet tells (a date column's order, a run-scoped
 * field's value) is known only once every row was read: it comes as a RowPatch that a row is
 * given as it is read back, as the rows kept in memory are given it at the end of the read.
 *
 * The file is made with mode 0600 (and never replaces another: 'wx'), in the data folder the
 * caller names; whoever holds the read's result removes it. Its size is bounded by the limits
 * the sheet was read within (workbooks/limits.ts: the sheet's rows, columns and cells), since
 * every line is one row of checked values of that sheet; a line read back is bounded by it too.
 */
import { closeSync, openSync, unlinkSync } from 'node:fs'
import { open } from 'node:fs/promises'
import type { InputRow } from '../../../shared/contract'
import { JsonLines } from '../json-lines'
import {
  toIsoDate,
  yearLastDate,
  type DateOrder,
  type WireValue,
} from '../../../shared/input-schema'

/** What the whole sheet decides for every row once it is read. */
export interface RowPatch {
  /** Date columns whose cells kept as written are read in this order. */
  dates: [key: string, order: DateOrder][]
  /** Run-scoped fields given in some rows: the others take this value. */
  fill: [key: string, value: WireValue][]
  /** Run-scoped fields given outside the sheet: every row takes this value. */
  set: [key: string, value: WireValue][]
}

export const NO_PATCH: RowPatch = { dates: [], fill: [], set: [] }

/** A date read in its column's order (the text as it is when it is no such date). */
export function dateInOrder(value: unknown, order: DateOrder): unknown {
  return typeof value === 'string' && yearLastDate(value)
    ? (toIsoDate(value, order) ?? value)
    : value
}

/** Gives a row what the whole sheet decided (in place; answers the row). */
export function patchRow(row: InputRow, patch: RowPatch): InputRow {
  for (const [key, order] of patch.dates)
    if (row[key] !== undefined) row[key] = dateInOrder(row[key], order) as WireValue
  for (const [key, value] of patch.fill) row[key] ??= value
  for (const [key, value] of patch.set) row[key] = value
  return row
}

/** Rows kept in a file: where each line starts (and the end), and the sheet's patch. */
export interface SpilledRows {
  path: string
  /** Byte offset of each row's line, then the file's end: one more than the rows. */
  starts: number[]
  patch: RowPatch
}

/** Where a read keeps its rows instead of in memory: the file to make. */
export interface SpillTarget {
  path: string
}

/** Writes rows as JSON lines as they come, a megabyte at a time (json-lines.ts). */
export class SpillWriter {
  private readonly fd: number
  private readonly lines = new JsonLines()
  private at = 0
  private open = true
  readonly starts: number[] = []

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'wx', 0o600)
  }

  add(row: InputRow): void {
    const line = JSON.stringify(row)
    let bytes = this.lines.add(line)
    if (bytes === 0) {
      this.lines.writeTo(this.fd)
      bytes = this.lines.add(line)
    }
    this.starts.push(this.at)
    this.at += bytes
  }

  /** The file complete: where its rows are. */
  close(patch: RowPatch): SpilledRows {
    this.lines.writeTo(this.fd)
    this.closeFile()
    return { path: this.path, starts: [...this.starts, this.at], patch }
  }

  /** The file removed: the read failed, or its rows are not to be sent. */
  abandon(): void {
    this.lines.drop()
    this.closeFile()
    unlinkSync(this.path)
  }

  /** Once only: the descriptor's number may be another file's once it is closed. */
  private closeFile() {
    if (!this.open) return
    this.open = false
    closeSync(this.fd)
  }
}

/**
 * Most bytes read back at once: a run of rows longer than this is read in several reads. Small
 * enough that each read's buffer is let go by the young generation's collections, not left for
 * a full one as a part's rows pass through.
 */
const READ_BYTES = 1024 * 1024

/** The spill's rows at these indexes (ascending), patched, in order. */
export async function readSpilledRows(
  spill: SpilledRows,
  indexes: readonly number[],
): Promise<InputRow[]> {
  const out: InputRow[] = []
  if (indexes.length === 0) return out
  const file = await open(spill.path, 'r')
  try {
    let k = 0
    while (k < indexes.length) {
      // A run of consecutive rows, up to READ_BYTES (at least one row).
      const first = indexes[k]!
      let last = first
      while (
        k + 1 < indexes.length &&
        indexes[k + 1] === last + 1 &&
        spill.starts[last + 2]! - spill.starts[first]! <= READ_BYTES
      ) {
        k += 1
        last += 1
      }
      k += 1
      const base = spill.starts[first]!
      const bytes = Buffer.allocUnsafe(spill.starts[last + 1]! - base)
      await file.read(bytes, 0, bytes.length, base)
      for (let i = first; i <= last; i += 1) {
        const line = bytes.toString(
          'utf8',
          spill.starts[i]! - base,
          spill.starts[i + 1]! - base - 1,
        )
        out.push(patchRow(JSON.parse(line) as InputRow, spill.patch))
      }
    }
  } finally {
    await file.close()
  }
  return out
}
