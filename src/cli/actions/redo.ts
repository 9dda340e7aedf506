/**
 * `runs redo`: a new run of only the rows whose outputs the user wants made again; `runs keep`:
 * which of a row's versions the results workbook shows.
 */
import { plural } from '../../shared/format/amounts'
import { resolve } from 'node:path'
import { rowName } from '../../core/flows/spend'
import { planRedo } from '../../core/flows/spend/plan-redo'
import { markedForRedo } from '../../core/flows/results/redo-column'
import { namedRowVersions, type RowVersions } from '../../core/flows/results/row-versions'
import { statusLabel } from '../../shared/format'
import {
  integerOption,
  stringOption,
  type ParsedArgs,
  type CommandContext,
  misuse,
  type Declared,
} from '../command'
import { EXIT } from '../errors'
import { spend, spendingOptions } from './spending'

/** "3,7,12" or "3-5,9": the row numbers named, in order. */
function rowList(text: string, self: Declared): number[] {
  const numbers: number[] = []
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part)
    const first = Number(match?.[1])
    const last = match?.[2] === undefined ? first : Number(match[2])
    if (!match || first < 1 || last < first || last - first > 100_000)
      throw misuse(self, `--rows takes row numbers such as 3,7,12 or 3-5; “${part}” is not one.`)
    for (let n = first; n <= last; n += 1) numbers.push(n)
  }
  return numbers
}

export async function runsRedo(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  spendingOptions(args)
  const rows = stringOption(args, 'rows')
  const from = stringOption(args, 'from')
  if (Boolean(rows) === Boolean(from))
    throw misuse(
      self,
      'name the rows to redo with --rows 3,7 or --from results.xlsx (one of them).',
    )
  const runId = args.positionals[0]!
  const numbers = rows ? rowList(rows, self) : await markedForRedo(resolve(from!), runId)
  const { engine, connection } = await ctx.session()
  const plan = await planRedo(engine, connection, runId, numbers, ctx.signal)
  ctx.out.note(
    `${plural(plan.rows.length, 'row')} to redo: ${plan.rowNumbers.map((n) => rowName(plan, n)).join(', ')}`,
  )
  return spend(ctx, engine, plan, args)
}

/** A row's versions, one a line, the kept one marked. */
function describeVersions(rowNumber: number, row: RowVersions, runId: string): string {
  const lines = [
    `row ${rowNumber}: version ${row.kept + 1} kept (${row.keptBy === 'choice' ? 'chosen' : 'the newest that succeeded'})`,
  ]
  row.versions.forEach((v, i) => {
    const made = v.runId === runId ? 'as first sent' : `sent again in ${v.runId}`
    const status = statusLabel(v.task?.status ?? 'unknown').toLowerCase()
    lines.push(`  ${i + 1}. ${made} (${status})${i === row.kept ? '  ← kept' : ''}`)
  })
  return lines.join('\n')
}

export async function runsKeep(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const rowNumber = integerOption(stringOption(args, 'row'), '--row', 1, 10_000_000)
  if (rowNumber === undefined)
    throw misuse(self, 'name the row with --row N (its spreadsheet row number).')
  const version = integerOption(stringOption(args, 'version'), '--version', 1, 10_000)
  const runId = args.positionals[0]!
  const { engine, connection } = await ctx.session()
  const row = await namedRowVersions(
    engine,
    connection,
    runId,
    rowNumber,
    version === undefined ? undefined : version - 1,
    ctx.signal,
  )
  const answer = {
    row: rowNumber,
    kept: row.kept + 1,
    keptBy: row.keptBy,
    versions: row.versions.map((v, i) => ({
      version: i + 1,
      runId: v.runId,
      status: v.task?.status ?? 'unknown',
    })),
  }
  ctx.out.result(answer, () => describeVersions(rowNumber, row, runId))
  return EXIT.ok
}
