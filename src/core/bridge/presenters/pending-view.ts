/** A submission sent and not yet answered, as the New run screen lists it. */
import type { PendingSubmissionView, PlanTarget } from '../../../shared/bridge'
import type { Submission } from '../../flows/spend/submissions'

export function pendingView(s: Submission): PendingSubmissionView {
  const target: PlanTarget =
    s.targetKind === 'listing'
      ? {
          kind: 'listing',
          listingId: s.targetId,
          listingVersionId: s.listingVersionId,
          name: s.targetId,
        }
      : { kind: 'template', templateId: s.targetId, name: s.targetId }
  return {
    environment: s.environment,
    clientRequestId: s.clientRequestId,
    state: s.state === 'pending' ? 'pending' : 'sent',
    target,
    fileName: s.inputFilename,
    rowCount: s.rowCount,
    createdAtMs: s.createdAtMs,
    updatedAtMs: s.updatedAtMs,
    error: s.error,
  }
}
