/** The Usage screen: the service's runs as figures, a period's runs, and the monthly limit. */
import { Calendar } from '../../../shared/usage/calendar'
import { localTimeZone } from '../../flows/usage/limit'
import { usageView } from '../presenters/usage-view'
import type { Engine } from '../../engine'
import type { Connects, VerbContext, Verbs } from './context'
import type { SavedFiles } from '../saved-files'
import { usageCsv, usageReport } from '../../../shared/usage/report'
import { writeFileAtomically } from '../../files/atomic-write'
import { safeFileName } from '../../files/safe-names'

export function usageVerbs(
  ctx: VerbContext<Connects & Pick<Engine, 'usage'>>,
  files: SavedFiles,
): Verbs<'usage' | 'usagePeriodRuns' | 'saveUsageCsv' | 'setMonthlyLimit'> {
  const { engine } = ctx
  return {
    async usage(args) {
      const connection = await engine.connect({ env: args.environment })
      const saved = engine.usage.lastRead(connection)
      const read = args.fresh || saved.readAtMs === null ? await engine.usage.read(connection) : saved
      const clock = { nowMs: Date.now(), timeZone: localTimeZone() }
      return usageView(connection, read, engine.usage.limit(connection.name), clock)
    },
    async usagePeriodRuns(args) {
      const connection = await engine.connect({ env: args.environment })
      const calendar = new Calendar(localTimeZone())
      const runs = engine.usage
        .lastRead(connection)
        .runs.filter((r) => r.finished && calendar.day(r.completedAtUnix).startsWith(args.period))
        .sort((a, b) => b.completedAtUnix - a.completedAtUnix)
      return { period: args.period, runs }
    },
    async saveUsageCsv(args) {
      const connection = await engine.connect({ env: args.environment })
      const report = usageReport(engine.usage.lastRead(connection).runs, {
        nowMs: Date.now(),
        timeZone: localTimeZone(),
        unit: args.unit,
        count: args.unit === 'day' ? 30 : 12,
        byTarget: true,
      })
      const span = args.unit === 'day' ? 'last 30 days' : 'last 12 months'
      return files.deliver(
        safeFileName(`Usage of ${connection.name}, ${span} to ${report.to}.csv`),
        'Save the usage as CSV',
        (path) => writeFileAtomically(path, usageCsv(report.items)),
        'text/csv',
      )
    },
    async setMonthlyLimit(args) {
      const connection = await engine.connect({ env: args.environment })
      engine.usage.setLimit(connection.name, args.limitT)
      return ctx.changed()
    },
  }
}
