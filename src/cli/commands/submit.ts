/**
 * The commands that send rows and may spend: `run` (an official template), `execute` (a
 * marketplace listing) and `runs retry-failed`. Each makes a plan and hands it to spend().
 */
import { planRetryFailed, planSubmission, rowName } from '../../core/flows/spend'
import type { RowSelection } from '../../core/flows/spend'
import type { PlanRequest } from '../../core/flows/spend/plan'
import type { PrepareTarget } from '../../shared/bridge'
import {
  integerOption,
  stringOption,
  type Command,
  type CommandContext,
  type ParsedArgs,
} from '../command'
import { UsageError } from '../errors'
import { mappedReader, mappingFlags } from '../column-mapping'
import { listingFile } from '../listing-copy'
import {
  asFollowUp,
  linkSetAside,
  setAsideFlags,
  setAsideOption,
  skippingInvalid,
  withSetAside,
} from '../set-aside'
import { flowHooks } from './flow-hooks'
import { spend, spendingFlags, spendingOptions } from './spending'

export const run: Command = {
  name: 'run',
  summary: 'Validate a workbook, upload its files and submit its rows to an official template.',
  usage:
    'run FILE --template ID [--callback-url URL] [--rows N-M] [--map "Column=fieldKey,..." | --map-file F.json] [--skip-invalid [--set-aside F.xlsx]] [--max-cost N] [--again] [--watch]',
  options: {
    template: { type: 'string' },
    'callback-url': { type: 'string' },
    rows: { type: 'string' },
    watch: { type: 'boolean' },
    ...spendingFlags,
    ...mappingFlags,
    ...setAsideFlags,
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  async run(ctx, args) {
    const templateId = stringOption(args, 'template')
    if (!templateId)
      throw new UsageError('run needs --template ID.', `Usage: skill-runner ${run.usage}`)
    const callbackUrl = stringOption(args, 'callback-url')
    return submitWorkbook(
      ctx,
      args,
      { kind: 'template', templateId, callbackUrl },
      undefined,
      false,
    )
  },
}

export const execute: Command = {
  name: 'execute',
  summary:
    'Validate a workbook on the service, show the cost, and execute a marketplace listing only when confirmed.',
  usage:
    'execute FILE --listing ID --version VID [--yes] [--max-cost N] [--pilot N | --rows N-M] [--map "Column=fieldKey,..." | --map-file F.json] [--skip-invalid [--set-aside F.xlsx]] [--again] [--watch]',
  options: {
    listing: { type: 'string' },
    version: { type: 'string' },
    yes: { type: 'boolean' },
    pilot: { type: 'string' },
    rows: { type: 'string' },
    watch: { type: 'boolean' },
    ...spendingFlags,
    ...mappingFlags,
    ...setAsideFlags,
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  async run(ctx, args) {
    const listingId = stringOption(args, 'listing')
    const versionId = stringOption(args, 'version')
    if (!listingId || !versionId)
      throw new UsageError(
        'execute needs --listing ID and --version VID.',
        `Usage: skill-runner ${execute.usage}`,
      )
    const pilot = integerOption(stringOption(args, 'pilot'), '--pilot', 1, 1_000_000)
    if (pilot !== undefined && stringOption(args, 'rows') !== undefined)
      throw new UsageError('give either --pilot N or --rows N-M, not both.')
    const target = { kind: 'listing', listingId, listingVersionId: versionId } as const
    return submitWorkbook(ctx, args, target, pilot, true)
  },
}

export const runsRetryFailed: Command = {
  name: 'runs retry-failed',
  summary:
    'Submit a new run with only the failed rows of a finished run made from this computer (asks first, or --yes).',
  usage: 'runs retry-failed RUN [--yes] [--max-cost N] [--again] [--watch]',
  options: { yes: { type: 'boolean' }, watch: { type: 'boolean' }, ...spendingFlags },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
    spendingOptions(args)
    const { engine, connection } = await ctx.session()
    const plan = await planRetryFailed(engine, connection, args.positionals[0]!, ctx.signal)
    ctx.out.note(
      `${plan.rows.length} failed row${plan.rows.length === 1 ? '' : 's'}: ${plan.rowNumbers.map((n) => rowName(plan, n)).join(', ')}`,
    )
    return spend(ctx, engine, plan, args, true)
  },
}

/**
 * Sends the workbook FILE's rows to a target the way `run` and `execute` both do: the spending
 * options checked first, then the plan (the first `pilot` rows, or those --rows names) handed
 * to spend(), which asks before paying when `ask` is set.
 */
async function submitWorkbook(
  ctx: CommandContext,
  args: ParsedArgs,
  target: PlanRequest['target'],
  pilot: number | undefined,
  ask: boolean,
): Promise<number> {
  spendingOptions(args)
  const session = await ctx.session()
  const { engine, connection } = session
  const setAside = setAsideOption(args, args.positionals[0]!)
  const copy = await listingFile(ctx, session, target, args, setAside)
  const read = await mappedReader(ctx, session, prepareTargetOf(target), args, setAside.enabled)
  const plan = await planSubmission(
    engine,
    connection,
    skippingInvalid(ctx, read, setAside, [['Target', JSON.stringify(prepareTargetOf(target))]]),
    {
      file: copy?.file ?? args.positionals[0]!,
      ...(copy ? { fileName: copy.fileName, scratch: copy.scratch } : {}),
      target,
      selection: pilot ? { first: pilot } : parseRows(stringOption(args, 'rows')),
    },
    flowHooks(ctx),
  )
  const sent = await asFollowUp(ctx, plan, args.positionals[0]!)
  const code = await spend(withSetAside(ctx, setAside), engine, sent, args, ask)
  await linkSetAside(ctx, setAside)
  return code
}

/** The target a column mapping is remembered for. */
function prepareTargetOf(target: PlanRequest['target']): PrepareTarget {
  return target.kind === 'template'
    ? { kind: 'template', templateId: target.templateId }
    : { kind: 'listing', listingId: target.listingId, listingVersionId: target.listingVersionId }
}

/** --rows: a range of spreadsheet rows (2-11, 5-, -9) or one row. */
function parseRows(value: string | undefined): RowSelection {
  if (value === undefined) return {}
  const match = /^(\d+)?-(\d+)?$|^(\d+)$/.exec(value.trim())
  if (!match) throw new UsageError(`--rows must look like 2-11 (spreadsheet rows), got “${value}”.`)
  if (match[3]) return { fromRow: Number(match[3]), toRow: Number(match[3]) }
  return {
    ...(match[1] ? { fromRow: Number(match[1]) } : {}),
    ...(match[2] ? { toRow: Number(match[2]) } : {}),
  }
}
