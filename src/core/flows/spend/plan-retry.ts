/**
 * Retrying the failed rows of a finished run made from this device, as a plan to confirm. For a
 * listing the fee and terms are looked up again (the buyer's view); the rows are the ones kept
 * in the history, named as they were (spreadsheet rows when they came from a workbook).
 */
import { randomUUID } from 'node:crypto'
import { isTerminalStatus, type RunDetail } from '../../../shared/contract'
import type { ListingSource, PlanTarget } from '../../../shared/bridge'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { buyerListing } from '../listings/buyer-listing'
import { costAndHistory } from './cost'
import type { Plan, SpendServices } from './plan'
import { noProblems } from './plan-submission'
import type { Submission, SubmissionTarget } from './submissions'

/** The run's detail once it has ended, refusing a run still going or one with no failed rows. */
async function endedWithFailures(
  services: Pick<SpendServices, 'history'>,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<{ detail: RunDetail; failed: Set<number> }> {
  const detail = await connection.client.run(runId, { signal })
  services.history.recordRuns(connection.historyKey, [detail.run])
  if (!isTerminalStatus(detail.run.status)) {
    throw new EngineError(
      'conflict',
      `Run ${runId} is still ${detail.run.status}.`,
      'Wait until it has finished, then retry its failed rows.',
      { action: 'watch-run' },
    )
  }
  const failed = new Set(
    detail.tasks.filter((t) => t.status === 'failed').map((t) => t.sourceRowIndex),
  )
  if (failed.size === 0) {
    throw new EngineError('refused', `Run ${runId} has no failed rows.`, 'Nothing to retry.')
  }
  return { detail, failed }
}

interface RetryTarget {
  target: SubmissionTarget
  targetView: PlanTarget
  fee: number | null
  terms: string
  schemaSource: ListingSource | 'template'
}

/** Where the retry goes: the same template, or the listing's current version and fee. */
async function retryTarget(
  connection: Connection,
  original: Submission,
  detail: RunDetail,
  signal?: AbortSignal,
): Promise<RetryTarget> {
  if (original.targetKind !== 'listing') {
    return {
      target: {
        kind: 'template',
        templateId: original.targetId,
        callbackUrl: original.callbackUrl || undefined,
      },
      targetView: {
        kind: 'template',
        templateId: original.targetId,
        name: detail.run.templateName || original.targetId,
      },
      fee: null,
      terms: '',
      schemaSource: 'template',
    }
  }
  const listing = await buyerListing(connection.client, original.targetId, signal)
  const fee = listing.source === 'none' ? original.taskFixedFeeT : listing.taskFixedFeeT
  const listingVersionId = listing.listingVersionId || original.listingVersionId
  return {
    target: { kind: 'listing', listingId: original.targetId, listingVersionId, taskFixedFeeT: fee },
    targetView: {
      kind: 'listing',
      listingId: original.targetId,
      listingVersionId,
      name: listing.displayName || original.targetId,
    },
    fee,
    terms: listing.pricingRuleVersion,
    schemaSource: listing.source,
  }
}

export async function planRetryFailed(
  services: SpendServices,
  connection: Connection,
  runId: string,
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
  const { detail, failed } = await endedWithFailures(services, connection, runId, signal)
  const picked = original.rows.map((row, i) => ({ row, i })).filter((p) => failed.has(p.i))
  const rows = picked.map((p) => p.row)
  const fromWorkbook = original.rowNumbers.length > 0
  const to = await retryTarget(connection, original, detail, signal)
  const costs = await costAndHistory(services, connection, to.target, rows, to.fee, signal)
  return services.plans.add({
    id: randomUUID(),
    connection,
    target: to.target,
    targetView: to.targetView,
    file: original.inputCopyPath,
    fileName: original.inputFilename,
    rows,
    rowNumbers: picked.map((p) => original.rowNumbers[p.i] ?? p.i + 1),
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
    ...services.plans.expiry(),
    ...costs,
  })
}
