/**
 * Confirming a plan: the one place money is spent. It refuses (spending nothing) without the
 * user's explicit yes, with an invalid workbook, above the spending cap, and for an identical
 * submission already accepted unless the user asked for it again; otherwise it uploads file
 * cells, journals the submission before sending it, and sends it (submissions.ts), in parts when
 * the service takes fewer rows in one request (send-parts.ts).
 */
import { EngineError } from '../../errors'
import { formatAmount, type AmountT } from '../../../shared/format/amounts'
import { contentFingerprint } from './cost'
import { uploadFileCells, type ProgressHooks } from './submission-inputs'
import type { Plan, SpendServices } from './plan'
import { keepMonthlyLimit, type LimitServices } from '../usage/limit'
import type { SubmissionHead } from './submissions'
import { sendPlan, type SendPlanServices } from './send-parts'
import { allPartsSent } from './parts'

/** Throws (spending nothing) when the estimate is above the cap, or a cap cannot be checked. */
export function checkSpendingCap(plan: Plan, maxCostT: AmountT | undefined): void {
  if (maxCostT === undefined) return
  const unit = plan.connection.unitLabel
  if (plan.estimateT === null) {
    throw new EngineError(
      'over-limit',
      `Nothing was sent: the cost of these rows is not known before the run, so the spending cap of ${formatAmount(maxCostT, unit)} cannot be checked.`,
      'Send a pilot of one row first without a cap to learn the cost per row, then send the rest with the cap.',
      { action: 'send-pilot' },
    )
  }
  if (plan.estimateT > maxCostT) {
    throw new EngineError(
      'over-limit',
      `Nothing was sent: the estimate of ${formatAmount(plan.estimateT, unit)} is above your cap of ${formatAmount(maxCostT, unit)}.`,
      'Raise the cap, or send fewer rows.',
      { action: 'send-fewer-rows' },
    )
  }
}

export interface ConfirmOptions {
  /** The user's explicit yes. */
  confirmed: boolean
  maxCostT?: AmountT | undefined
  /** Send even though an identical submission was already accepted (a new paid run). */
  again?: boolean | undefined
  /** The user cleared the address the plan would ask the service to call when the run ends. */
  withoutCallback?: boolean | undefined
}

export interface Confirmed {
  /** The run sent, or the first part's when the rows went as parts (its rows in the journal). */
  submission: SubmissionHead
  /** Every part sent, in order (the one submission when the rows went whole). */
  parts: SubmissionHead[]
  /** The earlier identical run, when `again` sent a new one. */
  againOf: SubmissionHead | null
}

/** Thrown by confirmPlan for an identical submission already accepted, without `again`. */
export class DuplicateSubmissionError extends EngineError {
  constructor(readonly earlier: SubmissionHead) {
    super(
      'conflict',
      `Nothing was sent: the same rows were already sent to the same target and accepted as run ${earlier.runId}.`,
      'Open that run, or confirm again to start a new paid run with the same rows.',
      { action: 'send-again' },
    )
    this.name = 'DuplicateSubmissionError'
  }
}

/** Thrown by confirmPlan for rows the batch already paid for, without `again`. */
export class PaidBeforeError extends EngineError {
  constructor(plan: Plan) {
    super(
      'conflict',
      `Nothing was sent: ${plan.paidBefore?.words ?? ''}`,
      'Send only the rows not sent yet, or confirm again to pay for these rows again.',
      { action: 'send-again' },
    )
    this.name = 'PaidBeforeError'
  }
}

/**
 * The plan without its address to call when the run ends: another submission, so another
 * fingerprint (an identical one already sent is looked up again by it).
 */
async function withoutCallback(plan: Plan, signal?: AbortSignal): Promise<Plan> {
  if (plan.target.kind !== 'template' || !plan.target.callbackUrl) return plan
  const target = { kind: 'template' as const, templateId: plan.target.templateId }
  return {
    ...plan,
    target,
    fingerprint: await contentFingerprint(plan.connection, target, plan.rows, signal),
  }
}

/**
 * Sends a plan: refuses (spending nothing) without confirmation, with an invalid workbook, above
 * the cap, or for a duplicate without `again`. Journals before sending; a lost answer leaves the
 * submission unanswered, and confirming again (or an identical plan) resends the same request.
 */
export async function confirmPlan(
  services: Pick<SpendServices, 'uploads' | 'plans'> & SendPlanServices & LimitServices,
  planned: Plan,
  options: ConfirmOptions,
  hooks: ProgressHooks = {},
): Promise<Confirmed> {
  const plan = options.withoutCallback ? await withoutCallback(planned, hooks.signal) : planned
  if (!plan.validation.valid || !plan.id) {
    throw new EngineError(
      'refused',
      'Nothing was sent: the workbook has problems.',
      'Fix the problems listed, then check the workbook again.',
    )
  }
  if (options.confirmed !== true) {
    throw new EngineError(
      'cancelled',
      'Nothing was sent: it was not confirmed.',
      'Confirm it to go ahead.',
      { action: 'confirm' },
    )
  }
  checkSpendingCap(plan, options.maxCostT)
  await keepMonthlyLimit(services, plan)
  const connection = plan.connection
  // Looked up again: another window or the command line may have sent it meanwhile.
  const duplicate =
    services.submissions.acceptedLike(connection.historyKey, plan.fingerprint) ??
    allPartsSent(services, plan)
  if (duplicate && !options.again) throw new DuplicateSubmissionError(duplicate)
  // Rows the batch already paid for go again only when the user said so (a redo says it itself).
  if (plan.paidBefore && !plan.redo && !options.again) throw new PaidBeforeError(plan)
  const rows = await uploadFileCells(services, connection, plan.rows, hooks)
  const parts = await sendPlan(services, plan, rows, { again: options.again === true, hooks })
  services.plans.drop(plan.id)
  return { submission: parts[0]!, parts, againOf: duplicate }
}
