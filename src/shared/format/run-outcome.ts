/**
 * How a run ended, in one phrase every front door uses (runs list, run detail, history,
 * notifications, the command line). The service calls a run `succeeded` as soon as one row
 * succeeded; a buyer whose other rows failed must not read "Succeeded" alone.
 */
import { isTerminalStatus } from '../contract/statuses'
import {
  missedRows,
  runProgressText,
  statusLabel,
  statusTone,
  type RunCounters,
  type StatusTone,
} from './runs'

/** A status tone, plus `warn`: finished, but some rows did not. */
export type OutcomeTone = StatusTone | 'warn'

export interface RunOutcome {
  /** "Succeeded", "Finished with 1 failed (2 of 3 succeeded)", "Running", ... */
  label: string
  tone: OutcomeTone
  /** Finished with some rows failed or cancelled while others succeeded. */
  partial: boolean
}

export function runOutcome(run: RunCounters): RunOutcome {
  const missed = run.failedTasks + run.cancelledTasks
  if (run.status === 'succeeded' && missed > 0) {
    return {
      label: `Finished with ${missedRows(run)} (${run.completedTasks} of ${run.totalTasks} succeeded)`,
      tone: 'warn',
      partial: true,
    }
  }
  return { label: statusLabel(run.status), tone: statusTone(run.status), partial: false }
}

/** What else than its counters can make a run need the user's attention. */
export interface AttentionSigns {
  /** No row has changed for much longer than usual (see run-pace). */
  stalled?: boolean
  /** Outputs were to be saved on this computer and some were not. */
  unsavedOutputs?: boolean
}

/**
 * A run the user should look at: it ended with failed rows (or failed outright), it is stalled,
 * or outputs it made were not saved. A cancelled run is the user's own doing and is not flagged
 * unless rows failed too.
 */
export function needsAttention(run: RunCounters, signs: AttentionSigns = {}): boolean {
  if (signs.stalled && !isTerminalStatus(run.status)) return true
  if (signs.unsavedOutputs) return true
  return isTerminalStatus(run.status) && (run.status === 'failed' || run.failedTasks > 0)
}

/** The title and body of the desktop notification shown when a run ends. */
export function runEndedMessage(
  run: RunCounters & { displayName: string; runId: string; firstErrorMessage: string },
): { title: string; body: string } {
  const name = run.displayName || run.runId
  const progress = runProgressText(run)
  const firstError = run.firstErrorMessage ? `. First error: ${run.firstErrorMessage}` : ''
  const outcome = runOutcome(run)
  if (outcome.partial)
    return {
      title: `${outcome.label}: ${name}`,
      body: `${progress}${firstError}`,
    }
  switch (run.status) {
    case 'succeeded':
      return { title: `Run finished: ${name}`, body: progress }
    case 'failed':
      return {
        title: `Run failed: ${name}`,
        body: `${progress}${firstError}`,
      }
    case 'cancelled':
      return { title: `Run cancelled: ${name}`, body: progress }
    default:
      return { title: `Run ended (${statusLabel(run.status)}): ${name}`, body: progress }
  }
}
