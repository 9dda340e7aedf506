/**
 * Sending the valid rows and setting the rest aside: the bad rows go to a workbook to fix, kept
 * in the engine's data folder (the app's) or where the user named it (the command line's), which
 * is linked to the run the valid rows went to once they are sent; a set-aside workbook sent
 * again after fixing is planned as that run's follow-up (plan-send.ts).
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { ListingInputSchema } from '../../../shared/contract'
import type { ReadResult } from '../../workbooks/validate/read-result'
import { linkSetAsideToRun } from '../../workbooks'
import { PLAN_TTL_MS } from './plan-store'
import type { SheetReadOptions } from './submission-inputs'

/** The workbook of rows set aside for a plan (and, once sent, its run). */
export interface SetAsideFile {
  path: string
  rows: number
  /** At a path the user chose: it stays there once sent; else it is kept under the run's name. */
  chosenByUser?: boolean | undefined
}

/**
 * "<input> (set aside).xlsx" beside the input, or "(set aside 2)"... when that is taken: an
 * earlier set-aside workbook may be the one the user is fixing.
 */
export function besideTheSheet(input: string): string {
  const stem = basename(input, extname(input))
  const dir = dirname(resolve(input))
  for (let n = 1; ; n += 1) {
    const path = join(dir, `${stem} (set aside${n === 1 ? '' : ` ${n}`}).xlsx`)
    if (!existsSync(path)) return path
  }
}

function setAsideFolder(home: string): string {
  return join(home, 'set-aside')
}

/**
 * The set-aside workbooks kept with their runs, by run id. Each one's name says its run and how
 * many rows it holds, so the history can count them without opening a workbook.
 */
export async function keptSetAsides(home: string): Promise<Map<string, SetAsideFile>> {
  const names = await readdir(setAsideFolder(home)).catch(() => [] as string[])
  const kept = new Map<string, SetAsideFile>()
  for (const name of names) {
    const match = /^run-(.+)--(\d+)\.xlsx$/.exec(name)
    if (!match) continue
    kept.set(decodeURIComponent(match[1]!), {
      path: join(setAsideFolder(home), name),
      rows: Number(match[2]),
    })
  }
  return kept
}

/**
 * A reader of a sheet that keeps what the reader saw (mapping, cells), not only the rows; asked
 * to, it sets the rows with problems aside as it reads them (ReadOptions.setAside).
 */
export type ReadSheet = (
  path: string,
  schema: ListingInputSchema | null,
  options?: SheetReadOptions,
) => Promise<ReadResult>

/**
 * A reader that gives only the valid rows of a sheet whose problems are all in some rows, the
 * others written to a workbook to fix as the sheet is read: at `chosen`, else in the data folder
 * (`onSetAside` says where, once written). A file problem, or no valid row at all, leaves the
 * read as it was, so nothing can be sent.
 */
export function skippingInvalidRows(
  home: string,
  read: ReadSheet,
  where: { chosen?: string | undefined; about: [string, string][] },
  onSetAside: (file: SetAsideFile) => void,
): ReadSheet {
  return async (path, schema, options = {}) => {
    let target = where.chosen
    if (!target) {
      await mkdir(setAsideFolder(home), { recursive: true })
      await dropUnsent(home)
      target = join(setAsideFolder(home), `plan-${randomUUID()}.xlsx`)
    }
    const setAside = { path: target, about: where.about }
    const result = await read(path, schema, { ...options, setAside })
    if (result.setAside) {
      const rows = result.setAside.rows
      onSetAside({ path: target, rows, ...(where.chosen ? { chosenByUser: true } : {}) })
    }
    return result
  }
}

/**
 * Removes the set-aside workbooks of plans that expired unconfirmed (a plan lives for
 * PLAN_TTL_MS): their rows were never sent, so there is nothing to fix them for.
 */
async function dropUnsent(home: string): Promise<void> {
  const folder = setAsideFolder(home)
  const names = await readdir(folder).catch(() => [] as string[])
  const before = Date.now() - 2 * PLAN_TTL_MS
  for (const name of names.filter((n) => n.startsWith('plan-'))) {
    const path = join(folder, name)
    const old = await stat(path).then(
      (s) => s.mtimeMs < before,
      () => false,
    )
    if (old) await rm(path, { force: true })
  }
}

/**
 * After the valid rows were sent as `runId`: the workbook of rows set aside says so on its
 * hidden sheet and, unless the user chose where it goes, is kept under the run's name, where
 * history finds it.
 */
export async function keepSetAsideWithRun(
  home: string,
  file: SetAsideFile,
  runId: string,
): Promise<void> {
  await linkSetAsideToRun(file.path, runId)
  if (file.chosenByUser) return
  const name = `run-${encodeURIComponent(runId)}--${file.rows}.xlsx`
  await rename(file.path, join(setAsideFolder(home), name))
}

/** Removes a set-aside workbook whose rows were not sent, unless the user chose where it went. */
export async function dropSetAside(file: SetAsideFile | undefined): Promise<void> {
  if (file && !file.chosenByUser) await rm(file.path, { force: true })
}
