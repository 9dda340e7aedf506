/** The Usage screen: the service's runs as figures, a period's runs, and the monthly limit. */
import { Calendar } from '../../../shared/usage/calendar'
import { localTimeZone } from '../../flows/usage/limit'
import { usageView } from '../presenters/usage-view'
import type { VerbContext, Verbs } from './context'

export function usageVerbs(
  ctx: VerbContext,
): Verbs<'usage' | 'usagePeriodRuns' | 'setMonthlyLimit'> {
  const { engine } = ctx
  return {
    async usage(args) {
      const connection = await engine.connect({ env: args.environment })
      const kept = engine.usage.kept(connection)
      const read = args.fresh || kept.readAtMs === null ? await engine.usage.read(connection) : kept
      const clock = { nowMs: Date.now(), timeZone: localTimeZone() }
      return usageView(connection, read, engine.usage.limit(connection.name), clock)
    },
    async usagePeriodRuns(args) {
      const connection = await engine.connect({ env: args.environment })
      const calendar = new Calendar(localTimeZone())
      const runs = engine.usage
        .kept(connection)
        .runs.filter((r) => r.finished && calendar.day(r.completedAtUnix).startsWith(args.period))
        .sort((a, b) => b.completedAtUnix - a.completedAtUnix)
      return { period: args.period, runs }
    },
    async setMonthlyLimit(args) {
      const connection = await engine.connect({ env: args.environment })
      engine.usage.setLimit(connection.name, args.limitT)
      return ctx.changed()
    },
  }
}
