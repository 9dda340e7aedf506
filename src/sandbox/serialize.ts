/** Turns stored rows into the interface's resources, field names exactly as the spec has them. */
import {
  API_PREFIX,
  type Artifact,
  type MarketContext,
  type RunSummary,
  type RunTask,
} from '../shared/contract'
import type { ArtifactRow, RunRow, TaskRow } from './db'
import type { SandboxContext } from './context'

/** Where an artifact's bytes are served (the sandbox's "Assets" endpoint; not in the catalog). */
export function artifactContentPath(artifactId: string): string {
  return `${API_PREFIX}/artifacts/${encodeURIComponent(artifactId)}/content`
}

export function marketContextOf(run: RunRow): MarketContext | undefined {
  if (!run.listing_id) return undefined
  return {
    listingId: run.listing_id,
    listingVersionId: run.listing_version_id ?? '',
    runId: run.run_id,
    runTransactionId: run.run_transaction_id ?? '',
    skillName: run.skill_name ?? '',
    transactionStatus: run.transaction_status ?? '',
    pricingRuleVersion: run.pricing_rule_version ?? '',
    taskFixedFeeT: run.task_fixed_fee_t ?? 0,
    estimatedExecutionCostT: run.estimated_execution_cost_t ?? 0,
    actualExecutionCostT: run.actual_execution_cost_t ?? 0,
    estimatedBuyerPayableT: run.estimated_buyer_payable_t ?? 0,
    finalBuyerPayableT: run.final_buyer_payable_t ?? 0,
  }
}

export function runSummaryOf(run: RunRow): RunSummary {
  const summary: RunSummary = {
    runId: run.run_id,
    displayName: run.display_name,
    status: run.status,
    sourceType: run.source_type,
    templateKey: run.template_key,
    templateName: run.template_name,
    templateUuid: run.template_uuid,
    definitionHash: run.definition_hash,
    inputFilename: run.input_filename,
    totalTasks: run.total_tasks,
    completedTasks: run.completed_tasks,
    failedTasks: run.failed_tasks,
    cancelledTasks: run.cancelled_tasks,
    estimatedCostT: run.estimated_cost_t,
    actualCostT: run.actual_cost_t,
    firstErrorMessage: run.first_error_message,
    createdAtUnix: run.created_at_unix,
    startedAtUnix: run.started_at_unix,
    completedAtUnix: run.completed_at_unix,
    updatedAtUnix: run.updated_at_unix,
    market: marketContextOf(run),
  }
  if (!summary.market) delete summary.market
  return summary
}

export function runTaskOf(task: TaskRow): RunTask {
  return {
    taskId: task.task_id,
    status: task.status,
    sourceRowIndex: task.row_index,
    artifactCount: task.artifact_count,
    errorMessage: task.error_message,
  }
}

/** When the accessUrls written now stop working (epoch ms), or undefined when they never do. */
export function expiryOf(ctx: Pick<SandboxContext, 'urlTtlMs'>): number | undefined {
  return ctx.urlTtlMs === undefined ? undefined : Date.now() + ctx.urlTtlMs
}

/**
 * `origin` is the address the caller used to reach the sandbox, e.g. http://127.0.0.1:4010.
 * With `expiresAtMs` the address carries its end, as a signed storage URL would.
 */
export function artifactOf(artifact: ArtifactRow, origin: string, expiresAtMs?: number): Artifact {
  const expiry = expiresAtMs === undefined ? '' : `?expires=${expiresAtMs}`
  return {
    artifactId: artifact.artifact_id,
    taskId: artifact.task_id,
    stepId: artifact.step_id,
    portName: artifact.port_name,
    sourceRowIndex: artifact.row_index,
    mimeType: artifact.mime_type,
    accessUrl: `${origin}${artifactContentPath(artifact.artifact_id)}${expiry}`,
    inlineText: artifact.inline_text ?? '',
    createdAtUnix: artifact.created_at_unix,
  }
}
