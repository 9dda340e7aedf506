/**
 * Redoing chosen rows of a run made from this device (outputs the user found poor), as a plan to
 * confirm like any paid run. Rows are named as the user sees them: spreadsheet rows when they came
 * from a workbook, otherwise their position in the submission. The redo is linked to the run it
 * redoes (retryOfRunId), and its fingerprint names which redo of that run it is: an earlier
 * accepted submission of the same rows does not block it, while a redo whose answer was lost is
 * sent again with the same request, so one redo never makes two runs.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { ListingSource, PlanTarget } from '../../../shared/bridge'
import type { RunDetail } from '../../../shared/contract'
import { buyerListing } from '../listings/buyer-listing'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { History } from '../../storage/run-history'
import { costAndHistory } from './cost'
import type { Plan, SpendServices } from './plan'
import { noProblems } from './plan-submission'
import type { Submission, SubmissionTarget } from './submissions'

export type RedoServices = SpendServices & { history: Pick<History, 'retriedBy'> }

/** The 0-based indexes of the named rows, refusing a number the run does not have. */
export function redoIndexes(original: Submission, runId: string, numbers: number[]): number[] {
  const fromWorkbook = original.rowNumbers.length > 0
  const indexOf = new Map(
    original.rows.map((_, i) => [fromWorkbook ? original.rowNumbers[i]! : i + 1, i]),
  )
  const missing = numbers.filter((n) => !indexOf.has(n))
  if (missing.length > 0) {
    const known = [...indexOf.keys()]
    throw new EngineError(
      'bad-input',
      `Run ${runId} has no ${fromWorkbook ? 'sheet row' : 'submitted row'} ${missing.join(', ')} (its rows are ${Math.min(...known)} to ${Math.max(...known)}).`,
      `Name rows of that run by their ${fromWorkbook ? 'spreadsheet row numbers' : 'position in the submission'}.`,
    )
  }
  if (numbers.length === 0)
    throw new EngineError('bad-input', 'No rows were named to redo.', 'Name at least one row.')
  return [...new Set(numbers.map((n) => indexOf.get(n)!))].sort((a, b) => a - b)
}

interface RedoTarget {
  target: SubmissionTarget
  targetView: PlanTarget
  fee: number | null
  terms: string
  schemaSource: ListingSource | 'template'
}

/**
 * Where the redo goes: the same template, or the listing's current version and fee (as a retry
 * of failed rows does; kept here so that spend/'s other files stay as they are).
 */
async function redoTarget(
  connection: Connection,
  original: Submission,
  detail: RunDetail,
  signal?: AbortSignal,
): Promise<RedoTarget> {
  if (original.targetKind !== 'listing') {
    const templateId = original.targetId
    return {
      target: { kind: 'template', templateId, callbackUrl: original.callbackUrl || undefined },
      targetView: { kind: 'template', templateId, name: detail.run.templateName || templateId },
      fee: null,
      terms: '',
      schemaSource: 'template',
    }
  }
  const listing = await buyerListing(connection.client, original.targetId, signal)
  const fee = listing.source === 'none' ? original.taskFixedFeeT : listing.taskFixedFeeT
  const listingVersionId = listing.listingVersionId || original.listingVersionId
  const listingId = original.targetId
  return {
    target: { kind: 'listing', listingId, listingVersionId, taskFixedFeeT: fee },
    targetView: {
      kind: 'listing',
      listingId,
      listingVersionId,
      name: listing.displayName || listingId,
    },
    fee,
    terms: listing.pricingRuleVersion,
    schemaSource: listing.source,
  }
}

/** This redo's fingerprint: the rows' own, then the redo's place among the run's redos. */
function redoFingerprint(base: string, runId: string, earlierRedos: string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([base, 'redo', runId, earlierRedos]))
    .digest('hex')
}

export async function planRedo(
  services: RedoServices,
  connection: Connection,
  runId: string,
  rowNumbers: number[],
  signal?: AbortSignal,
): Promise<Plan> {
  const original = services.submissions.byRun(connection.historyKey, runId)
  if (!original) {
    throw new EngineError(
      'not-found',
      `Run ${runId} was not submitted from this computer, so its rows are not here to send again.`,
      'Send the workbook again with only the rows you need.',
      { action: 'send-fewer-rows' },
    )
  }
  const indexes = redoIndexes(original, runId, rowNumbers)
  const detail = await connection.client.run(runId, { signal })
  services.history.recordRuns(connection.historyKey, [detail.run])
  const rows = indexes.map((i) => original.rows[i]!)
  const fromWorkbook = original.rowNumbers.length > 0
  const to = await redoTarget(connection, original, detail, signal)
  const costs = await costAndHistory(services, connection, to.target, rows, to.fee, signal)
  const fingerprint = redoFingerprint(
    costs.fingerprint,
    runId,
    services.history.retriedBy(connection.historyKey, runId),
  )
  return services.plans.add({
    id: randomUUID(),
    connection,
    target: to.target,
    targetView: to.targetView,
    file: original.inputCopyPath,
    fileName: original.inputFilename,
    rows,
    rowNumbers: indexes.map((i) => original.rowNumbers[i] ?? i + 1),
    rowNumbering: fromWorkbook ? 'spreadsheet' : 'submitted',
    totalRows: original.rowCount,
    pilotRows: null,
    taskFixedFeeT: to.fee,
    terms: to.terms,
    schemaSource: to.schemaSource,
    validation: noProblems,
    confirmRequired: true,
    retryOfRunId: runId,
    batchOfRunId: null,
    redo: true,
    ...services.plans.expiry(),
    ...costs,
    fingerprint,
    duplicateOf: services.submissions.acceptedLike(connection.historyKey, fingerprint),
    unansweredOf: services.submissions.unansweredLike(connection.historyKey, fingerprint),
  })
}
