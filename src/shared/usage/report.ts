/**
 * Usage as rows of numbers: per period, or per period and target, over the last days or months.
 * The CLI's `usage` prints it (`--json`, `--csv`) and the Usage screen's "Save as CSV" writes the
 * same columns, so a sheet made from either reads the same.
 */
import { Calendar, daysUpTo, monthsUpTo } from './calendar'
import {
  addRun,
  emptySums,
  monthSpending,
  targetKey,
  type UsageRun,
  type UsageSums,
  type UsageUnit,
} from './figures'

export interface UsageItem extends UsageSums {
  period: string
  /** With `byTarget`: "template:KEY" or "listing:ID", and its name. */
  target?: string
  targetName?: string
}

export interface UsageReport {
  from: string
  to: string
  unit: UsageUnit
  items: UsageItem[]
  totals: UsageSums & {
    thisMonthT: number
    runningEstimateT: number
    runningRuns: number
  }
}

export interface UsageReportOptions {
  nowMs: number
  timeZone: string
  unit: UsageUnit
  /** How many days or months, the current one included. */
  count: number
  byTarget: boolean
}

/** The periods' sums (every period listed, spent or not), oldest first. */
export function usageReport(runs: readonly UsageRun[], options: UsageReportOptions): UsageReport {
  const calendar = new Calendar(options.timeZone)
  const today = calendar.day(Math.floor(options.nowMs / 1000))
  const periods =
    options.unit === 'day'
      ? daysUpTo(today, options.count)
      : monthsUpTo(today.slice(0, 7), options.count)
  const first = periods[0]!
  const cut = options.unit === 'day' ? 10 : 7
  const items = new Map<string, UsageItem>()
  for (const period of periods) items.set(period, { period, ...emptySums() })
  const totals = emptySums()
  for (const run of runs) {
    if (!run.finished) continue
    const period = calendar.day(run.completedAtUnix).slice(0, cut)
    if (period < first) continue
    addRun(totals, run)
    const key = options.byTarget ? `${period} ${targetKey(run)}` : period
    let item = items.get(key)
    if (!item) {
      item = { period, target: targetKey(run), targetName: run.targetName, ...emptySums() }
      items.set(key, item)
    }
    addRun(item, run)
  }
  const listed = [...items.values()]
    .filter((item) => !options.byTarget || item.target !== undefined)
    .sort((a, b) => a.period.localeCompare(b.period) || b.actualCostT - a.actualCostT)
  const month = monthSpending(runs, options.nowMs, options.timeZone)
  return {
    from: first,
    to: periods[periods.length - 1]!,
    unit: options.unit,
    items: listed,
    totals: {
      ...totals,
      thisMonthT: month.finishedT,
      runningEstimateT: month.runningT,
      runningRuns: month.runningRuns,
    },
  }
}

const CSV_COLUMNS = [
  'period',
  'target',
  'target name',
  'actual cost',
  'estimated cost',
  'runs',
  'rows',
  'succeeded rows',
] as const

/** A cell as a spreadsheet reads it back: quoted when it holds a comma, quote or line break. */
function csvCell(value: string | number): string {
  const text = String(value)
  // A cell starting with = + - @ would be read as a formula by a spreadsheet.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The report's items as CSV, one line per item, with a header line. */
export function usageCsv(items: readonly UsageItem[]): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const i of items) {
    lines.push(
      [
        i.period,
        i.target ?? '',
        i.targetName ?? '',
        i.actualCostT,
        i.estimatedCostT,
        i.runs,
        i.rows,
        i.succeededRows,
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}
