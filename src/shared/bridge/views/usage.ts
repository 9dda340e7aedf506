/** The Usage screen: what was spent, per day and month and on what, and the monthly limit. */
import type { TargetUsage, UsageChart, UsageRun } from '../../usage/figures'

/** Where this month's spending stands against the environment's monthly limit. */
export interface MonthlyLimitView {
  limitT: number
  spentT: number
  leftT: number
  /** The send's estimate, on a plan (null: unknown, or no send). */
  estimateT: number | null
  over: boolean
  /** At 80% of the limit or more. */
  nearly: boolean
  /** The standing in words, with "kept by this computer, not by the service". */
  words: string
}

export interface UsageView {
  environment: string
  unitLabel: string
  /** When the runs were read from the service (null: never on this computer). */
  readAtMs: number | null
  /** Why the service could not be read now: the figures are those last read. */
  offline: string | null
  /** The last 30 days and the last 12 months, stacked by template or listing. */
  days: UsageChart
  months: UsageChart
  thisMonthT: number
  lastMonthT: number
  /** The estimate of runs still going, and how many there are. */
  runningEstimateT: number
  runningRuns: number
  /** Per template or listing over the 12 months, most spent first. */
  targets: TargetUsage[]
  /** The environment's monthly limit (null: none). */
  monthlyLimit: MonthlyLimitView | null
}

/** The runs that ended in one day or month, newest first. */
export interface UsagePeriodRunsView {
  period: string
  runs: UsageRun[]
}
