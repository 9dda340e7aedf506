/**
 * The state and actions of send-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type {
  BridgeErrorInfo,
  ConfirmChoice,
  PendingSubmissionView,
  SubmissionPlanView,
  SubmissionUpdate,
  SubmissionView,
} from '../../../shared/bridge'

export interface SendData {
  /** Sending: all rows, or a pilot of the first N. */
  pilot: { on: boolean; rows: number }
  /**
   * A template's address for the service to call when the run ends, as typed ('' for none);
   * the one last asked for with the template here comes with its form.
   */
  callbackUrl: string
  planning: boolean
  /** The id `cancelWork` stops the planning under way by; '' when none runs. */
  planWorkId: string
  /** The user stopped working out the cost (said until the next try). */
  planStopped: boolean
  plan: SubmissionPlanView | null
  planError: BridgeErrorInfo | null
  sending: boolean
  sendError: BridgeErrorInfo | null
  sent: SubmissionView | null
  /** Submissions journaled but not answered yet (they survive a restart). */
  pending: PendingSubmissionView[]
}

export interface SendActions {
  setPilot(pilot: { on: boolean; rows: number }): void
  setCallbackUrl(text: string): void
  /**
   * Reads the workbook for sending and works out the cost: opens the confirmation. With
   * `skipInvalid`, only the valid rows are planned and the others set aside to fix.
   */
  planSend(options?: { skipInvalid?: boolean }): Promise<void>
  /** Stops working out the cost: its requests are aborted, its late answer dropped. */
  cancelPlan(): void
  closePlan(): void
  /** Plans again, from the open plan's batch, only `rows` (the sheet rows not paid for before). */
  planOnlyNew(rows: number[]): Promise<void>
  /** The explicit yes: sends the plan. Resolves with the submission, null when refused. */
  confirmSend(options: ConfirmChoice): Promise<SubmissionView | null>
  loadPending(): Promise<void>
  /**
   * The rows set aside when `runId` was sent, to fix: downloaded (browser) or saved where the
   * user chooses and opened (desktop). Resolves with what went wrong, or null.
   */
  openRowsToFix(environment: string, runId: string): Promise<BridgeErrorInfo | null>
  applySubmissionUpdate(update: SubmissionUpdate): void
}
