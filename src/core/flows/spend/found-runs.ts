/**
 * A submission sent without an answer (the process was killed, the answer lost) may still have
 * made a run. The service's run summary does not carry the clientRequestId, so the run is
 * recognised by what it does carry: the same target (template, or listing and version), the same
 * number of rows, the same input file name when the service kept one, and a creation time
 * between the journaling and the last sending. Only a run that is the single one to fit, and
 * that no other journal entry claims or could be, is taken as the answer.
 */
import {
  executionResultSchema,
  runRowsAcceptanceSchema,
  type ExecutionResult,
  type RunRowsAcceptance,
  type RunSummary,
} from '../../../shared/contract'
import type { SubmissionHead } from '../../storage/tables/submissions'

/**
 * How far the service's clock may be from this computer's, and how long a request may still be
 * handled after it was last sent (a held or queued request), in seconds.
 */
const CLOCK_SLACK_S = 5 * 60
const LATE_HANDLING_S = 10 * 60

/** The answer the run stands for, in the shape the service would have sent it; null if none. */
function answerFrom(
  entry: SubmissionHead,
  run: RunSummary,
): RunRowsAcceptance | ExecutionResult | null {
  const parsed =
    entry.targetKind === 'listing'
      ? executionResultSchema.safeParse({ ...run.market, runId: run.runId })
      : runRowsAcceptanceSchema.safeParse({
          runId: run.runId,
          status: run.status,
          acceptedAtUnix: run.createdAtUnix,
        })
  return parsed.success ? parsed.data : null
}

function fits(entry: SubmissionHead, run: RunSummary): boolean {
  const sameTarget =
    entry.targetKind === 'listing'
      ? run.market?.listingId === entry.targetId &&
        run.market.listingVersionId === entry.listingVersionId
      : !run.market && run.templateKey === entry.targetId
  const sameFile =
    !run.inputFilename || !entry.inputFilename || run.inputFilename === entry.inputFilename
  const earliest = Math.floor(entry.createdAtMs / 1000) - CLOCK_SLACK_S
  const latest = Math.ceil(entry.updatedAtMs / 1000) + CLOCK_SLACK_S + LATE_HANDLING_S
  return (
    sameTarget &&
    sameFile &&
    run.totalTasks === entry.rowCount &&
    run.createdAtUnix >= earliest &&
    run.createdAtUnix <= latest
  )
}

/**
 * For each sent, unanswered entry, the run of `runs` that is its answer: the single fitting run
 * that no other entry could also be, and that is not `claimed` (already in the journal).
 */
export function findLostAnswers(
  entries: readonly SubmissionHead[],
  runs: readonly RunSummary[],
  claimed: (runId: string) => boolean,
): Map<number, RunRowsAcceptance | ExecutionResult> {
  const open = runs.filter((run) => !claimed(run.runId))
  const fittingOf = new Map<SubmissionHead, RunSummary[]>()
  const entriesFitting = new Map<string, number>()
  for (const entry of entries) {
    if (entry.state !== 'sent') continue
    const fitting = open.filter((run) => fits(entry, run))
    fittingOf.set(entry, fitting)
    for (const run of fitting)
      entriesFitting.set(run.runId, (entriesFitting.get(run.runId) ?? 0) + 1)
  }
  const found = new Map<number, RunRowsAcceptance | ExecutionResult>()
  for (const [entry, fitting] of fittingOf) {
    // Two runs that could be it, or a run that could be another entry's: left for a resend with
    // the same request id to settle exactly.
    if (fitting.length !== 1 || entriesFitting.get(fitting[0]!.runId) !== 1) continue
    const answer = answerFrom(entry, fitting[0]!)
    if (answer) found.set(entry.id, answer)
  }
  return found
}
