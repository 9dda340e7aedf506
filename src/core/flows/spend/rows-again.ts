/**
 * What sending rows of an earlier run again needs, whichever rows they are (the failed ones of a
 * retry, or those the user chose to redo): the run's own submission from the journal, the same
 * target (a listing's current version and fee looked up again), and the plan of those rows.
 */
import type { AmountT } from '../../../shared/format/amounts'
import { randomUUID } from 'node:crypto'
import type { InputRow, RunDetail } from '../../../shared/contract'
import type { ListingSource } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { buyerListing } from '../listings/buyer-listing'
import { costAndHistory } from './cost'
import type { Plan, SpendServices } from './plan'
import { noProblems } from './plan-submission'
import type { Submission } from './submissions'

/**
 * The journal's submission of a run, refusing a run not sent from this computer: with
 * `notSentHere`'s error when given, else one that says its rows are not here to send again.
 */
export function submissionOfRun(
  services: Pick<SpendServices, 'submissions'>,
  connection: Connection,
  runId: string,
  notSentHere?: () => EngineError,
): Submission {
  const original = services.submissions.byRun(connection.historyKey, runId)
  if (original) return original
  throw (
    notSentHere?.() ??
    new EngineError(
      'not-found',
      `Run ${runId} was not submitted from this computer, so its rows are not here to send again.`,
      'Send the workbook again with only the rows you need.',
      { action: 'send-fewer-rows' },
    )
  )
}

interface SameTarget {
  target: RunTarget
  targetView: Plan['targetView']
  fee: AmountT | null
  terms: string
  schemaSource: ListingSource | 'template'
}

/** Where rows sent again go: the same template, or the listing's current version and fee. */
async function sameTarget(
  connection: Connection,
  original: Submission,
  detail: RunDetail,
  signal?: AbortSignal,
): Promise<SameTarget> {
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

/**
 * The plan of some rows of `runId` (by their indexes in its submission) sent again to the same
 * target, priced as any plan; `extra` adds what differs (a redo's own fingerprint). `rows`, when
 * given, are those rows as fixed by the user (one per index) instead of as first sent.
 */
export async function rowsAgainPlan(
  services: SpendServices,
  connection: Connection,
  run: {
    runId: string
    original: Submission
    detail: RunDetail
    indexes: number[]
    rows?: InputRow[]
  },
  extra: (costs: Awaited<ReturnType<typeof costAndHistory>>) => Partial<Plan> = () => ({}),
  signal?: AbortSignal,
): Promise<Plan> {
  const { runId, original, detail, indexes } = run
  const rows = run.rows ?? indexes.map((i) => original.rows[i]!)
  const fromWorkbook = original.rowNumbers.length > 0
  const to = await sameTarget(connection, original, detail, signal)
  const costs = await costAndHistory(services, connection, to.target, rows, to.fee, signal)
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
    ...services.plans.expiry(),
    ...costs,
    ...extra(costs),
  })
}
