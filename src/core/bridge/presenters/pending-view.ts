/** A submission sent and not yet answered, as the New run screen lists it. */
import type { PendingSubmissionView } from '../../../shared/bridge'
import { submittedTarget, type SubmissionHead } from '../../flows/spend/submissions'

export function pendingView(s: SubmissionHead): PendingSubmissionView {
  const target = { ...submittedTarget(s), name: s.targetId }
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
