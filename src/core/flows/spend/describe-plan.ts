/** A plan in words, for the command line and the app's confirmation. */
import { formatAmount, estimateSourceWords, plural, type EstimateFacts } from '../../../shared/format/amounts'
import { sourceNote } from '../listings/buyer-listing'
import { sheetRowsText } from '../../../shared/format/rows'
import type { Plan } from './plan'
import { limitWords } from '../usage/limit'
import { partsWords } from './parts'

/** The facts the shared estimate words need, read off a plan. */
export function estimateFacts(plan: Plan): EstimateFacts {
  return {
    rowCount: plan.rows.length,
    estimateT: plan.estimateT,
    estimateSource: plan.estimateSource,
    taskFixedFeeT: plan.taskFixedFeeT,
    learnedFrom: plan.learnedFrom,
    unitLabel: plan.connection.unitLabel,
    targetKind: plan.targetView.kind,
    isPilot: plan.pilotRows !== null,
  }
}

/** "Row 6", or "submitted row 5" when the rows did not come from a workbook here. */
export function rowName(plan: Pick<Plan, 'rowNumbering'>, n: number): string {
  return plan.rowNumbering === 'spreadsheet' ? `row ${n}` : `submitted row ${n}`
}

/** One paragraph that says what confirming will do and spend. */
export function describePlan(plan: Plan): string {
  const unit = plan.connection.unitLabel
  const what =
    plan.targetView.kind === 'listing'
      ? `Execute “${plan.targetView.name}” (${plan.targetView.listingId}, version ${plan.targetView.listingVersionId})`
      : `Run the template “${plan.targetView.name}” (${plan.targetView.templateId})`
  const rows = plan.pilotRows
    ? `a pilot of the first ${plan.pilotRows} of ${plan.totalRows} rows`
    : plural(plan.rows.length, 'row')
  const cost = (t: number) => formatAmount(t, unit)
  const parts = [`${what} on ${rows}.`]
  if (plan.parts) parts.push(partsWords(plan))
  if (plan.retryOfRunId)
    parts.push(
      plan.redo
        ? `These rows were sent before, in run ${plan.retryOfRunId}; they are sent again as chosen.`
        : plan.followsSetAsideOf
          ? `These are the rows set aside from run ${plan.retryOfRunId}, fixed: ${sheetRowsText(plan.rowNumbers)} of the sheet.`
          : `These are the failed rows of run ${plan.retryOfRunId}.`,
    )
  if (plan.batchOfRunId && plan.batch?.kind === 'rest') {
    parts.push(
      `These are the rows of ${plan.fileName} that the pilot (run ${plan.batchOfRunId}) did not send: ${sheetRowsText(plan.rowNumbers) || 'no rows'}; the pilot’s rows are not sent again.`,
    )
  }
  if (plan.paidBefore) parts.push(plan.paidBefore.words)
  if (plan.estimateSource === 'fee' && plan.taskFixedFeeT !== null) {
    parts.push(
      `${plural(plan.rows.length, 'row')} x ${cost(plan.taskFixedFeeT)} per task = ${cost(plan.estimateT ?? 0)} (the service’s estimate; you are charged the actual cost).`,
    )
  } else if (plan.estimateSource === 'pilot' && plan.learnedFrom) {
    const perRow = Number(plan.learnedFrom.costPerRowT.toFixed(2))
    parts.push(
      `About ${cost(plan.estimateT ?? 0)} (estimate from run ${plan.learnedFrom.runId}, which cost ${cost(plan.learnedFrom.actualCostT)} for ${plural(plan.learnedFrom.rows, 'row')}: the last run’s cost per row, ${cost(perRow)} per row).`,
    )
  } else {
    parts.push(`Cost: ${estimateSourceWords(estimateFacts(plan))}`)
  }
  if (plan.terms) parts.push(`Pricing terms: ${plan.terms}.`)
  if (plan.target.kind === 'template' && plan.target.callbackUrl)
    parts.push(`When it ends, the service will call ${plan.target.callbackUrl}.`)
  if (plan.monthlyLimit?.nearly) parts.push(limitWords(plan.monthlyLimit, unit))
  if (plan.schemaSource !== 'template' && plan.schemaSource !== 'market') {
    parts.push(sourceNote(plan.schemaSource))
  }
  if (plan.duplicateOf) {
    parts.push(
      `The same rows were already sent to the same target as run ${plan.duplicateOf.runId} on ${new Date(plan.duplicateOf.updatedAtMs).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    )
  }
  return parts.join(' ')
}
