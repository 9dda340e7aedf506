/** A plan in words, for the command line and the app's confirmation. */
import { sourceNote } from '../listings/buyer-listing'
import type { Plan } from './plan'

export function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`
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
  const parts = [`${what} on ${rows}.`]
  if (plan.retryOfRunId)
    parts.push(
      plan.redo
        ? `These rows were sent before, in run ${plan.retryOfRunId}; they are sent again as chosen.`
        : `These are the failed rows of run ${plan.retryOfRunId}.`,
    )
  if (plan.estimateSource === 'fee' && plan.taskFixedFeeT !== null) {
    parts.push(
      `${plural(plan.rows.length, 'row')} x ${plan.taskFixedFeeT} ${unit} per task = ${plan.estimateT} ${unit} (estimate; you are charged the actual cost).`,
    )
  } else if (plan.estimateSource === 'pilot' && plan.learnedFrom) {
    const perRow = Number(plan.learnedFrom.costPerRowT.toFixed(2))
    parts.push(
      `About ${plan.estimateT} ${unit} (estimate from run ${plan.learnedFrom.runId}, which cost ${plan.learnedFrom.actualCostT} ${unit} for ${plural(plan.learnedFrom.rows, 'row')}: ${perRow} ${unit} per row).`,
    )
  } else {
    parts.push(
      plan.targetView.kind === 'listing'
        ? 'The service does not show this listing’s fee to your account, so the cost is known only after the run. Run a pilot of a few rows first to learn it.'
        : 'The cost is known only after the run (the service shows it on the run).',
    )
  }
  if (plan.terms) parts.push(`Pricing terms: ${plan.terms}.`)
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
