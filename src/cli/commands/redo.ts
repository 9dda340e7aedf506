/** `runs redo`: a new run of only the rows whose outputs the user wants made again. */
import { plural } from '../../shared/amounts'
import { resolve } from 'node:path'
import { rowName } from '../../core/flows/spend'
import { planRedo } from '../../core/flows/spend/plan-redo'
import { markedForRedo } from '../../core/flows/results/redo-column'
import { stringOption, type Command } from '../command'
import { UsageError } from '../errors'
import { spend, spendingFlags, spendingOptions } from './spending'

/** "3,7,12" or "3-5,9": the row numbers named, in order. */
function rowList(text: string): number[] {
  const numbers: number[] = []
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part)
    const first = Number(match?.[1])
    const last = match?.[2] === undefined ? first : Number(match[2])
    if (!match || first < 1 || last < first || last - first > 100_000)
      throw new UsageError(
        `--rows takes row numbers such as 3,7,12 or 3-5; “${part}” is not one.`,
        `Usage: skill-runner ${runsRedo.usage}`,
      )
    for (let n = first; n <= last; n += 1) numbers.push(n)
  }
  return numbers
}

export const runsRedo: Command = {
  name: 'runs redo',
  summary:
    'Send chosen rows of a run made from this computer again, as a new run (asks first, or --yes).',
  usage: 'runs redo RUN (--rows 3,7 | --from results.xlsx) [--yes] [--max-cost N] [--watch]',
  options: {
    rows: { type: 'string' },
    from: { type: 'string' },
    yes: { type: 'boolean' },
    watch: { type: 'boolean' },
    ...spendingFlags,
  },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
    spendingOptions(args)
    const rows = stringOption(args, 'rows')
    const from = stringOption(args, 'from')
    if (Boolean(rows) === Boolean(from))
      throw new UsageError(
        'name the rows to redo with --rows 3,7 or --from results.xlsx (one of them).',
        `Usage: skill-runner ${runsRedo.usage}`,
      )
    const runId = args.positionals[0]!
    const numbers = rows ? rowList(rows) : await markedForRedo(resolve(from!), runId)
    const { engine, connection } = await ctx.session()
    const plan = await planRedo(engine, connection, runId, numbers, ctx.signal)
    ctx.out.note(
      `${plural(plan.rows.length, 'row')} to redo: ${plan.rowNumbers.map((n) => rowName(plan, n)).join(', ')}`,
    )
    return spend(ctx, engine, plan, args)
  },
}
