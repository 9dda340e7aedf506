/**
 * `--skip-invalid [--set-aside F.xlsx]` on `run`: the rows with problems are set aside in a
 * workbook to fix (the user's columns, a Problem column, bad cells marked), and only the valid
 * rows are planned, so the cost, a pilot and the spending cap count only what is sent. The
 * answer gains `"setAside": { "path", "rows" }`.
 */
import { existsSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import type { ReadWholeWorkbook } from './column-mapping'
import { linkSetAsideToRun, setAsideRunOf, type SetAsideTarget } from '../core/workbooks'
import { plural } from '../shared/format/amounts'
import { flag, stringOption, type CommandContext, type ParsedArgs } from './command'
import { UsageError } from './errors'

/** What --skip-invalid asked for, and (once written) the workbook of rows set aside. */
export interface SetAside {
  enabled: boolean
  path: string
  written: { path: string; rows: number } | null
  /** The run the valid rows went to, once the service accepted them. */
  runId?: string
}

/**
 * "<input> (set aside).xlsx" beside the input, or "(set aside 2)"... when that is taken: an
 * earlier set-aside workbook may be the one the user is fixing.
 */
function freeDefaultPath(input: string): string {
  const stem = basename(input, extname(input))
  const dir = dirname(resolve(input))
  for (let n = 1; ; n += 1) {
    const path = join(dir, `${stem} (set aside${n === 1 ? '' : ` ${n}`}).xlsx`)
    if (!existsSync(path)) return path
  }
}

/** --skip-invalid and --set-aside (default: "<input> (set aside).xlsx" beside the input). */
export function setAsideOption(args: ParsedArgs, input: string): SetAside {
  const enabled = flag(args, 'skip-invalid')
  const given = stringOption(args, 'set-aside')
  if (given !== undefined && !enabled)
    throw new UsageError(
      '--set-aside goes with --skip-invalid.',
      'Add --skip-invalid, or leave out --set-aside.',
    )
  const path = given !== undefined ? resolve(given) : freeDefaultPath(input)
  if (!path.toLowerCase().endsWith('.xlsx'))
    throw new UsageError('--set-aside must name an .xlsx file.')
  return { enabled, path, written: null }
}

/**
 * The reader with --skip-invalid: a sheet whose only problems are in some rows gives its valid
 * rows, the others written to the set-aside workbook as the sheet is read (every one of them,
 * however many). A file problem, or no valid row at all, leaves the read as it was (nothing is
 * sent).
 */
export function skippingInvalid(
  ctx: CommandContext,
  read: ReadWholeWorkbook,
  setAside: SetAside,
  about: [string, string][],
): ReadWholeWorkbook {
  if (!setAside.enabled) return read
  return async (path, schema, options = {}) => {
    const target: SetAsideTarget = {
      path: setAside.path,
      about: [['Set aside from', resolve(path)], ...about],
    }
    const result = await read(path, schema, { ...options, setAside: target })
    if (!result.setAside) return result
    const rows = result.setAside.rows
    setAside.written = { path: setAside.path, rows }
    ctx.out.note(
      `${plural(rows, 'row')} with problems set aside in ${setAside.path} (fix them there and send that workbook); planning the ${plural(result.rows.length, 'valid row')}`,
    )
    return result
  }
}

/** The command's context with the answer gaining `setAside` once rows were set aside. */
export function withSetAside(ctx: CommandContext, setAside: SetAside): CommandContext {
  if (!setAside.enabled) return ctx
  const out = Object.create(ctx.out) as CommandContext['out']
  out.result = (value, human) => {
    const written = setAside.written
    const plain = typeof value === 'object' && value !== null && !Array.isArray(value)
    const runId = plain ? sentRunId(value) : undefined
    if (runId) setAside.runId = runId
    ctx.out.result(written && plain ? { ...value, setAside: written } : value, human)
  }
  return { ...ctx, out }
}

/** The run an answer names: the run sent, or with --watch the run in its final detail. */
function sentRunId(value: object): string | undefined {
  const run = 'run' in value && typeof value.run === 'object' && value.run ? value.run : value
  return 'runId' in run && typeof run.runId === 'string' ? run.runId : undefined
}

/** Writes the run the valid rows went to into the set-aside workbook's hidden sheet. */
export async function linkSetAside(ctx: CommandContext, setAside: SetAside): Promise<void> {
  if (!setAside.written || !setAside.runId) return
  await linkSetAsideToRun(setAside.written.path, setAside.runId).catch(() =>
    ctx.out.note(
      `the set-aside workbook could not be linked to run ${setAside.runId}; its rows are still there to fix`,
    ),
  )
}

/**
 * The run whose set-aside rows `file` holds, when it is a set-aside workbook fixed and sent
 * again: the rows are that run's follow-up, in its batch (said on stderr).
 */
export async function followUpOfFile(
  ctx: CommandContext,
  file: string,
): Promise<string | undefined> {
  const runId = await setAsideRunOf(resolve(file))
  if (!runId) return undefined
  ctx.out.note(`these rows were set aside from run ${runId}: they are sent as its follow-up`)
  return runId
}
