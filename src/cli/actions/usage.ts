/**
 * `usage`: what was spent per day or month (and per template or listing), from the service's
 * runs list; when the service cannot be read, from the runs last read, said on stderr with their
 * date. `env limit` is in actions/env.ts.
 */
import { resolve } from 'node:path'
import { limitWords, localTimeZone, standingOf } from '../../core/flows/usage/limit'
import { writeFileAtomically } from '../../core/files/atomic-write'
import { amountT, formatAmount, plural } from '../../shared/format/amounts'
import { usageCsv, usageReport } from '../../shared/usage/report'
import {
  atMostOne,
  integerOption,
  misuse,
  stringOption,
  type CommandContext,
  type Declared,
  type ParsedArgs,
} from '../command'
import { table } from '../output'
import { localTime } from '../time'

function reportOptions(args: ParsedArgs, self: Declared) {
  const months = integerOption(stringOption(args, 'months'), '--months', 1, 120)
  const days = integerOption(stringOption(args, 'days'), '--days', 1, 3660)
  atMostOne(self, { '--months N': months, '--days N': days })
  const by = stringOption(args, 'by') ?? 'day'
  if (by !== 'day' && by !== 'template') {
    throw misuse(self, `--by is day or template, not “${by}”.`)
  }
  return {
    unit: days !== undefined ? ('day' as const) : ('month' as const),
    count: days ?? months ?? 12,
    byTarget: by === 'template',
  }
}

export async function usage(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const options = reportOptions(args, self)
  const csvPath = stringOption(args, 'csv')
  const engine = await ctx.engine()
  const connection = await ctx.connect()
  const read = await engine.usage.read(connection, { signal: ctx.signal })
  if (read.offline) {
    const when = read.readAtMs ? localTime(Math.floor(read.readAtMs / 1000)) : null
    ctx.out.note(
      when
        ? `The service could not be read, so these are its runs as last read on ${when}. ${read.offline}`
        : `The service could not be read, and its runs were never read on this computer. ${read.offline}`,
    )
  }
  const report = usageReport(read.runs, {
    ...options,
    nowMs: Date.now(),
    timeZone: localTimeZone(),
  })
  if (csvPath) {
    const path = resolve(csvPath)
    await writeFileAtomically(path, usageCsv(report.items))
    ctx.out.note(`wrote ${path}`)
  }
  const unit = connection.unitLabel
  const limitT = engine.usage.limit(connection.name)
  ctx.out.result({ ...report, ...(limitT !== null ? { monthlyLimitT: limitT } : {}) }, () => {
    const t = report.totals
    const lines = [
      table(
        [
          options.unit === 'day' ? 'DAY' : 'MONTH',
          ...(options.byTarget ? ['TARGET'] : []),
          'SPENT',
          'ESTIMATED',
          'RUNS',
          'ROWS',
          'SUCCEEDED',
        ],
        report.items.map((i) => [
          i.period,
          ...(options.byTarget ? [i.targetName || i.target || ''] : []),
          formatAmount(i.actualCostT, unit),
          formatAmount(i.estimatedCostT, unit),
          String(i.runs),
          String(i.rows),
          String(i.succeededRows),
        ]),
      ),
      '',
      `From ${report.from} to ${report.to}: ${formatAmount(t.actualCostT, unit)} spent (estimated ${formatAmount(t.estimatedCostT, unit)}) on ${plural(t.runs, 'run')}, ${plural(t.succeededRows, 'row')} of ${plural(t.rows, 'row')} succeeded.`,
      `This month: ${formatAmount(t.thisMonthT, unit)} spent${t.runningRuns ? `, and about ${formatAmount(t.runningEstimateT, unit)} on its way in ${plural(t.runningRuns, 'run')} still going` : ''}.`,
    ]
    if (limitT !== null) {
      const month = { month: '', finishedT: t.thisMonthT, runningT: t.runningEstimateT }
      lines.push(limitWords(standingOf(month, amountT(limitT), null), unit))
    }
    return lines.join('\n')
  })
}
