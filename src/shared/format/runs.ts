/**
 * How runs read in the UI and in notifications. Pure functions, shared by the renderer, the
 * desktop shell (notifications) and the CLI.
 */
import { isTerminalStatus } from '../contract/statuses'
import { finishedRows } from './row-times'
import { formatAmount } from './amounts'

export interface RunCounters {
  status: string
  totalTasks: number
  completedTasks: number
  failedTasks: number
  cancelledTasks: number
}

const STATUS_LABELS: Record<string, string> = {
  queued: 'Queued',
  // A task the service has not started yet (the Sandbox's word, and a common one).
  pending: 'Waiting',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

/** A known status in words; an unknown one exactly as the service sent it. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status
}

export type StatusTone = 'waiting' | 'active' | 'good' | 'bad' | 'muted' | 'unknown'

export function statusTone(status: string): StatusTone {
  switch (status) {
    case 'queued':
    case 'pending':
      return 'waiting'
    case 'running':
      return 'active'
    case 'succeeded':
      return 'good'
    case 'failed':
      return 'bad'
    case 'cancelled':
      return 'muted'
    default:
      return 'unknown'
  }
}

const rows = (n: number) => (n === 1 ? 'row' : 'rows')

/**
 * "3 of 4 rows succeeded", with failures and cancellations after it ("3 of 4 rows succeeded,
 * 1 failed"). The counters are the service's; nothing is inferred.
 */
export function runProgressText(run: RunCounters): string {
  const [done, rest] = runProgressLines(run)
  return rest ? `${done}, ${rest}` : done
}

/**
 * The same progress as two lines for a narrow cell: what succeeded, then what did not ("1 failed,
 * 2 cancelled"), which is empty when every finished row succeeded.
 */
export function runProgressLines(run: RunCounters): [string, string] {
  if (run.totalTasks <= 0)
    return [isTerminalStatus(run.status) ? 'No rows' : 'Waiting for rows', '']
  const done = `${run.completedTasks} of ${run.totalTasks} ${rows(run.totalTasks)} succeeded`
  return [done, missedRows(run)]
}

/** The rows that did not succeed: "1 failed", "2 failed, 1 cancelled" ('' when none). */
export function missedRows(run: RunCounters): string {
  const parts: string[] = []
  if (run.failedTasks > 0) parts.push(`${run.failedTasks} failed`)
  if (run.cancelledTasks > 0) parts.push(`${run.cancelledTasks} cancelled`)
  return parts.join(', ')
}

/** Share of rows that are finished (succeeded, failed or cancelled), 0..1. */
export function runDoneFraction(run: RunCounters): number {
  if (run.totalTasks <= 0) return isTerminalStatus(run.status) ? 1 : 0
  return Math.min(1, Math.max(0, finishedRows(run) / run.totalTasks))
}

export interface RunCost {
  status: string
  estimatedCostT: number
  actualCostT: number
}

/** The run's cost: the actual amount once there is one, otherwise the estimate, marked so. */
export function runCostText(run: RunCost, unitLabel: string, locale?: string): string {
  if (run.actualCostT > 0 || isTerminalStatus(run.status)) {
    return formatAmount(run.actualCostT, unitLabel, locale)
  }
  if (run.estimatedCostT > 0) return `about ${formatAmount(run.estimatedCostT, unitLabel, locale)}`
  return formatAmount(0, unitLabel, locale)
}
