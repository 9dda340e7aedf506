/**
 * The state and actions of retry-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type {
  BridgeErrorInfo,
  ConfirmChoice,
  FileRef,
  SubmissionPlanView,
} from '../../../shared/bridge'

export type RetryState =
  | { state: 'idle' }
  | { state: 'planning' }
  | {
      /** The failed rows shown to fix first; `checked`: the plan is of the cells as they are. */
      state: 'fixing'
      plan: SubmissionPlanView
      edits: RetryEdits
      checked: boolean
      checking: boolean
      error: BridgeErrorInfo | null
      /** The corrected workbook the edits were last taken from, by name. */
      fromWorkbook?: string
    }
  | SendAgainStage

/**
 * Where a paid send of rows again (a retry, a redo) stands once planned: in the confirmation,
 * sent as a new run, or failed.
 */
export type SendAgainStage =
  | {
      state: 'confirming'
      plan: SubmissionPlanView
      /** Rows whose cells the buyer changed before this send (a retry's fixes). */
      editedRows?: number
      sending: boolean
      error: BridgeErrorInfo | null
    }
  | { state: 'sent'; runId: string }
  | { state: 'failed'; error: BridgeErrorInfo }

/** The user's new text of failed rows' cells: row (as the run names it) -> field key -> text. */
export type RetryEdits = Record<number, Record<string, string>>

export interface RetryActions {
  /** Plans a new run of the failed rows; nothing is sent until confirmRetry. */
  planRetry(): Promise<void>
  /** Changes a cell of a failed row; the plan is checked again (checkFixes) before it can go on. */
  editCell(row: number, key: string, text: string): void
  /** Plans the retry again with the edits, checked like a workbook's cells. */
  checkFixes(): Promise<void>
  /**
   * Takes the fixes from the corrected workbook (the run's own, fixed in its failed rows): its
   * changed cells become the edits, checked the same way; the user reviews them, then sends.
   */
  fixFromWorkbook(file: FileRef): Promise<void>
  /** From the fixed rows to the usual confirmation, once the plan is checked and valid. */
  reviewRetry(): void
  confirmRetry(choice: ConfirmChoice): Promise<void>
  cancelRetry(): void
}
