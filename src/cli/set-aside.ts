/**
 * `--skip-invalid [--set-aside F.xlsx]` on `run` and `execute`, in the command line's words: the
 * options read into the send's request (the engine sets the rows aside, plan-send.ts), what was
 * set aside said on stderr, and the answer gaining `"setAside": { "path", "rows" }`.
 */
import { resolve } from 'node:path'
import type { Engine } from '../core/engine'
import type { Plan } from '../core/flows/spend'
import { besideTheSheet, keepSetAsideWithRun } from '../core/flows/spend/set-aside'
import { plural } from '../shared/format/amounts'
import { flag, stringOption, type CommandContext, type ParsedArgs } from './command'
import { UsageError } from './errors'

/** --skip-invalid and --set-aside (default: "<input> (set aside).xlsx" beside the input). */
export function setAsideOption(args: ParsedArgs, input: string): { path: string } | undefined {
  const enabled = flag(args, 'skip-invalid')
  const given = stringOption(args, 'set-aside')
  if (given !== undefined && !enabled)
    throw new UsageError(
      '--set-aside goes with --skip-invalid.',
      'Add --skip-invalid, or leave out --set-aside.',
    )
  if (!enabled) return undefined
  const path = given !== undefined ? resolve(given) : besideTheSheet(input)
  if (!path.toLowerCase().endsWith('.xlsx'))
    throw new UsageError('--set-aside must name an .xlsx file.')
  return { path }
}

/**
 * Sends a plan through `spend` with what was set aside said first, the answer gaining
 * `setAside`, and the workbook to fix linked to the run the valid rows went to.
 */
export async function spendSettingAside(
  ctx: CommandContext,
  engine: Pick<Engine, 'home'>,
  plan: Plan,
  spend: (ctx: CommandContext) => Promise<number>,
): Promise<number> {
  const aside = plan.setAside
  if (!aside) return spend(ctx)
  ctx.out.note(
    `${plural(aside.rows, 'row')} with problems set aside in ${aside.path} (fix them there and send that workbook); planning the ${plural(plan.totalRows, 'valid row')}`,
  )
  let runId: string | undefined
  const out = Object.create(ctx.out) as CommandContext['out']
  out.result = (value, human) => {
    const plain = typeof value === 'object' && value !== null && !Array.isArray(value)
    if (plain) runId = sentRunId(value)
    const setAside = { path: aside.path, rows: aside.rows }
    ctx.out.result(plain ? { ...value, setAside } : value, human)
  }
  const code = await spend({ ...ctx, out })
  if (runId)
    await keepSetAsideWithRun(engine.home, aside, runId).catch(() =>
      ctx.out.note(
        `the set-aside workbook could not be linked to run ${runId}; its rows are still there to fix`,
      ),
    )
  return code
}

/** The run an answer names: the run sent, or with --watch the run in its final detail. */
function sentRunId(value: object): string | undefined {
  const run = 'run' in value && typeof value.run === 'object' && value.run ? value.run : value
  return 'runId' in run && typeof run.runId === 'string' ? run.runId : undefined
}
