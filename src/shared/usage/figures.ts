/**
 * What was spent, from the service's runs: per day or month, per template or listing, and this
 * month's spending that the monthly limit counts. Pure; every figure in one pass over the runs
 * (`bench/usage.bench.ts` holds 10,000 runs over a year to its target).
 *
 * A finished run counts in the period it ended in, with its actual cost; a run still going is
 * not in any period yet, and counts by its estimate in this month's spending, since it will be
 * charged when it ends.
 */
import { Calendar, daysUpTo, monthBefore, monthsUpTo } from './calendar'

/** One run as usage reads it (the service's run summary, cut to what counts). */
export interface UsageRun {
  runId: string
  name: string
  status: string
  targetKind: 'template' | 'listing'
  /** The template's key or the listing's id. */
  targetId: string
  targetName: string
  estimatedCostT: number
  actualCostT: number
  rows: number
  succeededRows: number
  createdAtUnix: number
  /** 0 while the run is still going. */
  completedAtUnix: number
  finished: boolean
}

/** Sums over a set of runs. */
export interface UsageSums {
  actualCostT: number
  estimatedCostT: number
  runs: number
  rows: number
  succeededRows: number
}

export type UsageUnit = 'day' | 'month'

/** One bar of a chart: a period, split by target (the top few by cost, the rest as one). */
export interface UsageBar {
  period: string
  /** Actual cost per series, in the order of `UsageChart.series`. */
  values: number[]
  totalT: number
}

export interface UsageChart {
  unit: UsageUnit
  /** The top targets by cost in the chart's range, then "Other" when more spent. */
  series: { key: string; name: string }[]
  bars: UsageBar[]
}

export interface TargetUsage extends UsageSums {
  key: string
  kind: 'template' | 'listing'
  id: string
  name: string
}

/** This month's spending as the monthly limit counts it. */
export interface MonthSpending {
  month: string
  /** Finished runs' actual cost this month. */
  finishedT: number
  /** Estimates of runs still going. */
  runningT: number
  runningRuns: number
}

export interface UsageFigures {
  days: UsageChart
  months: UsageChart
  thisMonth: MonthSpending
  lastMonthT: number
  /** Per template or listing over the months' range, most spent first. */
  targets: TargetUsage[]
}

export const OTHER_KEY = 'other'
const TOP_SERIES = 5

export const emptySums = (): UsageSums => ({
  actualCostT: 0,
  estimatedCostT: 0,
  runs: 0,
  rows: 0,
  succeededRows: 0,
})

export function addRun(sums: UsageSums, run: UsageRun): void {
  sums.actualCostT += run.actualCostT
  sums.estimatedCostT += run.estimatedCostT
  sums.runs += 1
  sums.rows += run.rows
  sums.succeededRows += run.succeededRows
}

/** "template:echo" or "listing:lst_1": a target's key among both kinds. */
export const targetKey = (run: Pick<UsageRun, 'targetKind' | 'targetId'>) =>
  `${run.targetKind}:${run.targetId}`

/** This month's spending (finished runs' actual cost, running runs' estimate). */
export function monthSpending(
  runs: readonly UsageRun[],
  nowMs: number,
  timeZone: string,
  calendar = new Calendar(timeZone),
): MonthSpending {
  const month = calendar.month(Math.floor(nowMs / 1000))
  const spent: MonthSpending = { month, finishedT: 0, runningT: 0, runningRuns: 0 }
  for (const run of runs) {
    if (!run.finished) {
      spent.runningT += run.estimatedCostT
      spent.runningRuns += 1
    } else if (calendar.month(run.completedAtUnix) === month) spent.finishedT += run.actualCostT
  }
  return spent
}

/** Every figure the Usage screen shows: the last `days` days and `months` months. */
export function usageFigures(
  runs: readonly UsageRun[],
  options: { nowMs: number; timeZone: string; days?: number; months?: number },
): UsageFigures {
  const calendar = new Calendar(options.timeZone)
  const today = calendar.day(Math.floor(options.nowMs / 1000))
  const dayKeys = daysUpTo(today, options.days ?? 30)
  const monthKeys = monthsUpTo(today.slice(0, 7), options.months ?? 12)
  const [firstDay, firstMonth] = [dayKeys[0]!, monthKeys[0]!]
  const perDay = new Map<string, Map<string, number>>()
  const perMonth = new Map<string, Map<string, number>>()
  const targets = new Map<string, TargetUsage>()
  for (const run of runs) {
    if (!run.finished) continue
    const day = calendar.day(run.completedAtUnix)
    const month = day.slice(0, 7)
    if (month < firstMonth) continue
    const key = targetKey(run)
    addTo(perMonth, month, key, run.actualCostT)
    if (day >= firstDay) addTo(perDay, day, key, run.actualCostT)
    let target = targets.get(key)
    if (!target) {
      target = { key, kind: run.targetKind, id: run.targetId, name: run.targetName, ...emptySums() }
      targets.set(key, target)
    }
    addRun(target, run)
  }
  const month = today.slice(0, 7)
  const byCost = [...targets.values()].sort((a, b) => b.actualCostT - a.actualCostT)
  return {
    days: chart('day', dayKeys, perDay, targets),
    months: chart('month', monthKeys, perMonth, targets),
    thisMonth: monthSpending(runs, options.nowMs, options.timeZone, calendar),
    lastMonthT: sumOf(perMonth.get(monthBefore(month))),
    targets: byCost,
  }
}

function addTo(into: Map<string, Map<string, number>>, period: string, key: string, t: number) {
  let byTarget = into.get(period)
  if (!byTarget) into.set(period, (byTarget = new Map()))
  byTarget.set(key, (byTarget.get(key) ?? 0) + t)
}

function sumOf(byTarget: Map<string, number> | undefined): number {
  let total = 0
  for (const t of byTarget?.values() ?? []) total += t
  return total
}

/** Bars for the periods, stacked by the top targets of this range and "Other". */
function chart(
  unit: UsageUnit,
  periods: readonly string[],
  perPeriod: Map<string, Map<string, number>>,
  targets: Map<string, TargetUsage>,
): UsageChart {
  const inRange = new Map<string, number>()
  for (const period of periods) {
    for (const [key, t] of perPeriod.get(period) ?? [])
      inRange.set(key, (inRange.get(key) ?? 0) + t)
  }
  const ranked = [...inRange].filter(([, t]) => t > 0).sort((a, b) => b[1] - a[1])
  const top = ranked.length > TOP_SERIES + 1 ? ranked.slice(0, TOP_SERIES) : ranked
  const series = top.map(([key]) => ({ key, name: targets.get(key)?.name || key }))
  const index = new Map(series.map((s, i) => [s.key, i]))
  if (top.length < ranked.length) series.push({ key: OTHER_KEY, name: 'Other' })
  const bars = periods.map((period): UsageBar => {
    const values = series.map(() => 0)
    let totalT = 0
    for (const [key, t] of perPeriod.get(period) ?? []) {
      values[index.get(key) ?? series.length - 1]! += t
      totalT += t
    }
    return { period, values, totalT }
  })
  return { unit, series, bars }
}
