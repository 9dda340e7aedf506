/** A plan as the Bridge shows it (the confirmation's view). */
import type { DuplicateView, SubmissionPlanView } from '../../../shared/bridge'
import { describePlan } from '../../flows/spend/describe-plan'
import { partsWords } from '../../flows/spend/parts'
import type { Plan } from '../../flows/spend/plan'
import type { SubmissionHead } from '../../flows/spend/submissions'
import { monthlyLimitView } from './usage-view'

export function duplicateView(s: SubmissionHead | null): DuplicateView | null {
  return s
    ? { runId: s.runId, clientRequestId: s.clientRequestId, acceptedAtMs: s.updatedAtMs }
    : null
}

/** The Bridge's view of a plan. */
export function planView(plan: Plan): SubmissionPlanView {
  return {
    planId: plan.id,
    environment: plan.connection.name,
    expiresAtMs: plan.expiresAtMs,
    target: plan.targetView,
    fileName: plan.fileName,
    rowCount: plan.rows.length,
    totalRows: plan.totalRows,
    rowNumbers: plan.rowNumbers,
    rowNumbering: plan.rowNumbering,
    pilotRows: plan.pilotRows,
    taskFixedFeeT: plan.taskFixedFeeT,
    estimateT: plan.estimateT,
    estimateSource: plan.estimateSource,
    learnedFrom: plan.learnedFrom,
    unitLabel: plan.connection.unitLabel,
    terms: plan.terms,
    schemaSource: plan.schemaSource,
    validation: plan.validation,
    duplicateOf: duplicateView(plan.duplicateOf),
    unansweredOf: plan.unansweredOf
      ? {
          clientRequestId: plan.unansweredOf.clientRequestId,
          sentAtMs: plan.unansweredOf.updatedAtMs,
        }
      : null,
    confirmRequired: plan.confirmRequired,
    retryOfRunId: plan.retryOfRunId,
    ...(plan.target.kind === 'template' && plan.target.callbackUrl
      ? { callbackUrl: plan.target.callbackUrl }
      : {}),
    monthlyLimit: plan.monthlyLimit
      ? monthlyLimitView(plan.monthlyLimit, plan.connection.unitLabel)
      : null,
    ...(plan.setAside ? { setAsideRows: plan.setAside.rows } : {}),
    ...(plan.followsSetAsideOf ? { followsSetAsideOf: plan.followsSetAsideOf } : {}),
    ...(plan.batchOfRunId ? { restOfPilotRunId: plan.batchOfRunId } : {}),
    ...(plan.fixableRows?.length ? { fixableRows: plan.fixableRows } : {}),
    ...(plan.fixesFromWorkbook ? { fixesFromWorkbook: plan.fixesFromWorkbook } : {}),
    ...(plan.parts
      ? {
          parts: {
            count: plan.parts.parts.length,
            size: plan.parts.size,
            words: partsWords(plan, { runIds: false }),
          },
        }
      : {}),
    ...(plan.batch ? { batchId: plan.batch.batchId ?? '', sendKind: plan.batch.kind } : {}),
    paidBefore: plan.paidBefore
      ? {
          rows: plan.paidBefore.sheetRows.length,
          sheetRows: plan.paidBefore.sheetRows.slice(0, 50),
          runIds: plan.paidBefore.runIds,
          words: plan.paidBefore.words,
        }
      : null,
    summary: plan.validation.valid
      ? describePlan(plan)
      : 'The workbook has problems: nothing can be sent.',
  }
}
