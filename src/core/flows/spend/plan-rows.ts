/**
 * The rows a plan sends, read a run at a time: from memory (a retry's, a redo's: rows the journal
 * held), or from the spill file its sheet's read kept them in (workbooks' row-spill.ts), so a
 * sheet of 100,000 rows is never all in memory between its check and its last part. What a plan
 * does to every row (run values, headers as keys, uploaded files in place of paths) is kept as
 * a function given to each row as it is read, never as a second copy of the rows.
 *
 * A spill file's size is bounded by the limits its sheet was read within; it is removed with its
 * plan (plan-store.ts), or with a plan that could not be made (plan-submission.ts).
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { InputRow } from '../../../shared/contract'
import { readSpilledRows, type SpilledRows } from '../../workbooks'
import { randomId } from '../../files/hashing'

/**
 * Rows read at once when every row is looked at (a fingerprint, the files named in cells). At
 * 2,000 rows of 1.5 KB a chunk outlived the young generation's collections and was promoted:
 * the plan's heap rose to about 100 MB over a 100,000-row sheet; at 500 it stays near 20 MB.
 */
const CHUNK_ROWS = 500

type ReadRows = (start: number, end: number) => Promise<InputRow[]>

export class PlanRows {
  private constructor(
    readonly length: number,
    private readonly read: ReadRows,
    /** The spill file the rows are read from, when they are not in memory. */
    readonly spillPath?: string,
  ) {}

  static of(rows: InputRow[]): PlanRows {
    return new PlanRows(rows.length, async (start, end) => rows.slice(start, end))
  }

  /** The spill's rows at `indexes` (ascending), in that order. */
  static spilled(spill: SpilledRows, indexes: readonly number[]): PlanRows {
    return new PlanRows(
      indexes.length,
      (start, end) => readSpilledRows(spill, indexes.slice(start, end)),
      spill.path,
    )
  }

  /** These rows, each given `fn` as it is read. */
  map(fn: (row: InputRow) => InputRow): PlanRows {
    return new PlanRows(
      this.length,
      async (start, end) => (await this.read(start, end)).map(fn),
      this.spillPath,
    )
  }

  /** Rows `start` (included) to `end` (excluded), read when they are asked for. */
  range(start: number, end: number): PlanRows {
    const from = Math.max(0, start)
    const to = Math.max(from, Math.min(end, this.length))
    return new PlanRows(to - from, (a, b) => this.read(from + a, from + b), this.spillPath)
  }

  /** Rows `start` (included) to `end` (excluded). */
  slice(start: number, end: number): Promise<InputRow[]> {
    return this.read(Math.max(0, start), Math.min(end, this.length))
  }

  /** Every row, a few thousand at a time. */
  async *chunks(size = CHUNK_ROWS): AsyncGenerator<InputRow[]> {
    for (let start = 0; start < this.length; start += size)
      yield await this.slice(start, start + size)
  }
}

/** Where a plan's rows are spilled: the data folder's own, readable by this user only. */

/**
 * A new spill file's path in `folder` (made, mode 0700), the files of plans that can no longer
 * be confirmed (older than `olderThanMs`: a crash's, a killed process's) removed first.
 */
export async function newSpillPath(folder: string, olderThanMs: number): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 })
  const before = Date.now() - olderThanMs
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const path = join(folder, name)
    const old = await stat(path).then(
      (s) => s.mtimeMs < before,
      () => false,
    )
    if (old) await rm(path, { force: true })
  }
  return join(folder, `rows-${randomId()}.jsonl`)
}
