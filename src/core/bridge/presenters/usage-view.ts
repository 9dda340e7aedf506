/** Usage and the monthly limit as the Bridge shows them. */
import type { AmountT } from '../../../shared/format/amounts'
import type { MonthlyLimitView, UsageView } from '../../../shared/bridge'
import { usageFigures } from '../../../shared/usage/figures'
import { limitWords, standingOf, type LimitStanding } from '../../flows/usage/limit'
import type { UsageRuns } from '../../flows/usage/usage'

export function monthlyLimitView(standing: LimitStanding, unitLabel: string): MonthlyLimitView {
  return {
    limitT: standing.limitT,
    spentT: standing.spentT,
    leftT: standing.leftT,
    estimateT: standing.estimateT,
    over: standing.over,
    nearly: standing.nearly,
    words: limitWords(standing, unitLabel),
  }
}

/** The Usage screen's figures from the runs read (or kept), at `nowMs` in `timeZone`. */
export function usageView(
  environment: { name: string; unitLabel: string },
  read: UsageRuns,
  limitT: AmountT | null,
  clock: { nowMs: number; timeZone: string },
): UsageView {
  const figures = usageFigures(read.runs, clock)
  const month = figures.thisMonth
  return {
    environment: environment.name,
    unitLabel: environment.unitLabel,
    readAtMs: read.readAtMs,
    offline: read.offline,
    days: figures.days,
    months: figures.months,
    thisMonthT: month.finishedT,
    lastMonthT: figures.lastMonthT,
    runningEstimateT: month.runningT,
    runningRuns: month.runningRuns,
    targets: figures.targets,
    monthlyLimit:
      limitT === null
        ? null
        : monthlyLimitView(standingOf(month, limitT, null, read.offline), environment.unitLabel),
  }
}
