/**
 * The state and actions of retry-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type { BridgeErrorInfo, SubmissionPlanView } from '../../../shared/bridge'

export type RetryState =
  | { state: 'idle' }
  | { state: 'planning' }
  | {
      state: 'confirming'
      plan: SubmissionPlanView
      sending: boolean
      error: BridgeErrorInfo | null
    }
  | { state: 'sent'; runId: string }
  | { state: 'failed'; error: BridgeErrorInfo }

export interface RetryChoice {
  maxCostT?: number
  again?: boolean
}

export interface RetryActions {
  /** Plans a new run of the failed rows; nothing is sent until confirmRetry. */
  planRetry(): Promise<void>
  confirmRetry(choice: RetryChoice): Promise<void>
  cancelRetry(): void
}
