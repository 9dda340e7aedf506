/**
 * The commands that send rows and may spend: `run` (an official template), `execute` (a
 * marketplace listing) and `runs retry-failed`. Each makes a plan and hands it to spend().
 */
import { basename, resolve } from 'node:path'
import { plural } from '../../shared/format/amounts'
import { checkedCallbackUrl } from '../../core/flows/prepare/callback-addresses'
import { planRestOfPilot, planRetryFailed, rowName } from '../../core/flows/spend'
import type { RowSelection } from '../../core/flows/spend'
import { planSend } from '../../core/flows/spend/plan-send'
import type { ReadCorrected } from '../../core/flows/spend/retry-workbook'
import type { RunTarget } from '../../shared/run-target'
import type { Connection, Engine } from '../../core/engine'
import { atMostOne, integerOption, misuse, stringOption } from '../command'
import type { CommandContext, Declared, ParsedArgs } from '../command'
import { UsageError } from '../errors'
import { mappingOption, mappingReported } from '../column-mapping'
import { setAsideOption, spendSettingAside } from '../set-aside'
import { readWorkbookWith } from '../workbook-reader'
import { flowHooks } from './flow-hooks'
import { spend, spendingOptions } from './spending'
import { defined } from '../../shared/defined'

export async function run(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const restOf = stringOption(args, 'rest-of')
  if (restOf !== undefined) return sendRestOfPilot(ctx, args, restOf, self)
  if (args.positionals.length === 0) throw misuse(self, 'run needs a workbook FILE.')
  const templateId = stringOption(args, 'template')
  if (!templateId) throw misuse(self, 'run needs --template ID.')
  // Refused in the app's words before the workbook is read or the service asked (exit 2).
  const callbackUrl = checkedCallbackUrl(stringOption(args, 'callback-url'))
  return submitWorkbook(ctx, args, { kind: 'template', templateId, callbackUrl }, undefined)
}

export async function execute(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const listingId = stringOption(args, 'listing')
  const versionId = stringOption(args, 'version')
  if (!listingId || !versionId) throw misuse(self, 'execute needs --listing ID and --version VID.')
  const pilot = integerOption(stringOption(args, 'pilot'), '--pilot', 1, 1_000_000)
  atMostOne(self, { '--pilot N': pilot, '--rows N-M': stringOption(args, 'rows') })
  const target = { kind: 'listing', listingId, listingVersionId: versionId } as const
  return submitWorkbook(ctx, args, target, pilot)
}

export async function runsRetryFailed(ctx: CommandContext, args: ParsedArgs) {
  spendingOptions(args)
  const { engine, connection } = await ctx.session()
  const from = stringOption(args, 'from')
  // --from: the run's workbook, fixed in its failed rows; their changed cells are sent.
  const fixes = from
    ? {
        file: resolve(from),
        fileName: basename(from),
        read: correctedReader(ctx, engine, connection),
      }
    : []
  const plan = await planRetryFailed(engine, connection, args.positionals[0]!, ctx.signal, fixes)
  ctx.out.note(
    `${plural(plan.rows.length, 'failed row')}: ${plan.rowNumbers.map((n) => rowName(plan, n)).join(', ')}`,
  )
  for (const fix of plan.fixesFromWorkbook ?? [])
    ctx.out.note(
      `Row ${fix.row}: ${Object.keys(fix.cells).join(', ')} changed in ${basename(from!)}`,
    )
  return spend(ctx, engine, plan, args)
}

/** Reads a corrected workbook like the run's: cells kept as typed, its sheet's mapping used. */
function correctedReader(
  ctx: CommandContext,
  engine: Pick<Engine, 'mappings'>,
  connection: Connection,
): ReadCorrected {
  return async (path, schema, target) => {
    const rememberedMaps = engine.mappings.forTarget(connection.historyKey, target)
    return readWorkbookWith(ctx, { columns: { keepCells: true, rememberedMaps } })(path, schema)
  }
}

/**
 * Sends the workbook FILE's rows to a target the way `run` and `execute` both do: the spending
 * options checked first, then the send planned by the engine (the first `pilot` rows, or those
 * --rows names; --sheet, --map, --skip-invalid) and handed to spend(), which asks before paying
 * (or needs --yes).
 */
async function submitWorkbook(
  ctx: CommandContext,
  args: ParsedArgs,
  target: RunTarget,
  pilot: number | undefined,
): Promise<number> {
  spendingOptions(args)
  const { engine, connection } = await ctx.session()
  const file = args.positionals[0]!
  const setAside = setAsideOption(args, file)
  const plan = await planSend(
    engine,
    connection,
    mappingReported(ctx, readWorkbookWith(ctx)),
    {
      file,
      target,
      sheet: stringOption(args, 'sheet'),
      mapping: await mappingOption(args),
      setAside,
      selection: pilot ? { first: pilot } : parseRows(stringOption(args, 'rows')),
    },
    flowHooks(ctx),
  )
  return spendSettingAside(ctx, engine, plan, (out) => spend(out, engine, plan, args))
}

/**
 * `run --rest-of PILOT_RUN`: the rows of the pilot's workbook that the pilot did not send, to
 * the same template or listing, through the same consent as any run.
 */
async function sendRestOfPilot(
  ctx: CommandContext,
  args: ParsedArgs,
  pilotRunId: string,
  self: Declared,
) {
  const alone = ['template', 'rows', 'callback-url'].filter((o) => args.values[o] !== undefined)
  if (args.positionals.length > 0 || alone.length > 0)
    throw misuse(
      self,
      '--rest-of takes the workbook, the target and the rows from the pilot: give no FILE, --template, --rows or --callback-url with it.',
    )
  if (['sheet', 'map', 'map-file'].some((o) => args.values[o] !== undefined))
    ctx.out.note('the rest is read with the sheet and the column mapping the pilot was sent with')
  spendingOptions(args)
  const { engine, connection } = await ctx.session()
  const plan = await planRestOfPilot(
    engine,
    connection,
    readWorkbookWith(ctx),
    pilotRunId,
    flowHooks(ctx),
  )
  return spend(ctx, engine, plan, args)
}

/** --rows: a range of spreadsheet rows (2-11, 5-, -9) or one row. */
function parseRows(value: string | undefined): RowSelection {
  if (value === undefined) return {}
  const match = /^(\d+)?-(\d+)?$|^(\d+)$/.exec(value.trim())
  if (!match) throw new UsageError(`--rows must look like 2-11 (spreadsheet rows), got “${value}”.`)
  if (match[3]) return { fromRow: Number(match[3]), toRow: Number(match[3]) }
  return defined({
    fromRow: match[1] ? Number(match[1]) : undefined,
    toRow: match[2] ? Number(match[2]) : undefined,
  })
}
