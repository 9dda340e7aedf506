/**
 * Views of the paid flows: the buyer's view of a listing, plans, confirmations and the uploads of
 * input files. Verbs: planSubmission, confirmSubmission, planRetryFailed, getPilotRest,
 * planRestOfPilot, cancelWork, listPendingSubmissions, resendPendingSubmissions, uploadFiles;
 * events: submissionUpdated, uploadProgress. A plan spends nothing; only confirmSubmission sends, and only with
 * `confirmed: true`, under the cap, and (for an identical submission already accepted) `again`.
 */
import type { MonthlyLimitView } from './usage'
import type { SchemaColumn, SchemaField, WorkbookValidation } from '../../contract'
import type { BatchSendKind } from './batches'
import type { RunTarget } from '../../run-target'

/**
 * Where a listing's schema and fee came from (DESIGN.md, "Buyer's view of a listing"), in the
 * order they are tried: the service's buyer view, the buyer's own creator listing, the hidden
 * sheet of a workbook generated for the listing, the workbook's headers taken as field keys.
 * 'none': nothing known yet (getListing without a workbook when the first two are missing).
 */
export type ListingSource = 'market' | 'creator' | 'workbook' | 'headers' | 'none'

/** A marketplace listing as a buyer sees it. */
export interface ListingView {
  environment: string
  listingId: string
  displayName: string
  description: string
  /** The version a buyer executes (the published one). */
  listingVersionId: string
  publishedVersionId: string
  /** Fee per task (per row); null when the service does not show it to this account. */
  taskFixedFeeT: number | null
  /** The pricing terms the fee is charged under, e.g. "flat-task-fee-1"; '' when unknown. */
  pricingRuleVersion: string
  unitLabel: string
  status: string
  saleStatus: string
  executionAvailabilityStatus: string
  /** Published, on sale, available, at its published version. */
  executable: boolean
  /** The input schema; empty lists when it is not known (source 'none' or 'headers'). */
  columns: SchemaColumn[]
  fields: SchemaField[]
  source: ListingSource
  /** One sentence on where the schema and fee came from, for the confirmation screen. */
  sourceNote: string
}

/** An earlier accepted submission with the same environment, target and input content. */
export interface DuplicateView {
  runId: string
  clientRequestId: string
  /** When it was accepted (ms since 1970). */
  acceptedAtMs: number
}

/** How a plan's cost was worked out. */
export type EstimateSource =
  /** rows x the listing's taskFixedFeeT. */
  | 'fee'
  /** rows x the actual cost per row of an ended pilot (or earlier run) of the same target. */
  | 'pilot'
  /** Not known: the fee is not shown and no earlier run of the target has ended. */
  | 'none'

/**
 * A submission ready to confirm: what will be sent, what it will cost, and what to ask.
 * Kept by the engine under `planId` for a limited time (see `expiresAtMs`).
 */
/** A failed row to fix before a retry: its cells (files are changed in the workbook only). */
export interface FixableRowView {
  /** As the run names it (its sheet row). */
  row: number
  error: string
  cells: { key: string; label: string; text: string; editable: boolean }[]
}

export interface SubmissionPlanView {
  /** '' when the workbook is not valid: nothing can be confirmed. */
  planId: string
  environment: string
  expiresAtMs: number
  /** What the rows go to, with the name it is known by. */
  target: RunTarget & { name: string }
  /** The workbook's file name ('' for a retry of rows kept in the history). */
  fileName: string
  /** Rows to send. */
  rowCount: number
  /** Rows in the whole workbook (more than rowCount for a pilot or a row range). */
  totalRows: number
  /**
   * How each row to send is named (DESIGN.md, "Row numbers"): its spreadsheet row when it came
   * from a workbook on this device, else its 1-based position in the submitted rows.
   */
  rowNumbers: number[]
  rowNumbering: 'spreadsheet' | 'submitted'
  /** Rows that are a pilot (the first N of the workbook), or null. */
  pilotRows: number | null
  /** These rows are the rest of the workbook after its pilot (the run named), not sent before. */
  restOfPilotRunId?: string
  taskFixedFeeT: number | null
  /** What sending will cost (an estimate: the service charges the actual cost), or null. */
  estimateT: number | null
  estimateSource: EstimateSource
  /** For estimateSource 'pilot': the run it was learned from and its actual cost per row. */
  learnedFrom: { runId: string; rows: number; actualCostT: number; costPerRowT: number } | null
  unitLabel: string
  /** The listing's pricing terms ('' for templates or when unknown). */
  terms: string
  /** Where the schema came from (templates: 'market' is never used; 'creator' neither). */
  schemaSource: ListingSource | 'template'
  /** The result of validation (offline for templates, on the service for listings). */
  validation: WorkbookValidation
  /** An identical submission already accepted: confirming needs `again: true`. */
  duplicateOf: DuplicateView | null
  /** An identical submission sent earlier whose answer never came: confirming resends it. */
  unansweredOf: { clientRequestId: string; sentAtMs: number } | null
  /** Always true now (every paid send asks the same way); kept so the shape does not change. */
  confirmRequired: boolean
  /** The run whose failed rows this plan sends again, or null. */
  retryOfRunId: string | null
  /**
   * The address the service is asked to call when the run ends (a template's; a rest, retry or
   * redo carries its first run's); absent for none. confirmSubmission's `withoutCallback` clears it.
   */
  callbackUrl?: string
  /** Where this month stands against the environment's monthly limit; null without a limit. */
  monthlyLimit?: MonthlyLimitView | null
  /** Rows with problems set aside to fix (asked with skipInvalid): not sent, not counted. */
  setAsideRows?: number
  /** The run these fixed set-aside rows follow up (then retryOfRunId is that run too). */
  followsSetAsideOf?: string
  /**
   * A retry's failed rows (from a workbook) with their cells as sent and why each failed: fixed
   * in the app, they are planned again with planRetryFailed's `edits`.
   */
  fixableRows?: FixableRowView[]
  /**
   * A retry planned from a corrected workbook (planRetryFailed's `file`): the cells it changed
   * in the failed rows (row as the run names it, field key -> text), as if typed in the app.
   */
  fixesFromWorkbook?: { row: number; cells: Record<string, string> }[]
  /** The batch these rows belong to ('' when the first send of a sheet makes a new one). */
  batchId?: string
  /** How these rows come to be sent (all, pilot, rest, retry, redo...). */
  sendKind?: BatchSendKind
  /**
   * Rows of this plan that the batch already sent and that succeeded (or are still running):
   * they would be paid again, so confirming needs `again: true`, said as a send again.
   */
  paidBefore?: PaidBeforeView | null
  /**
   * More rows than the service takes at once: how many runs they go as, of at most how many
   * rows, and the same in words (no run ids), said before the agreement.
   */
  parts?: { count: number; size: number; words: string }
  /** One paragraph that says what confirming will do and spend. */
  summary: string
}

/** Rows of a plan the batch already paid for: which, and in which runs. */
export interface PaidBeforeView {
  rows: number
  /** Their sheet rows, at most 50 (the first in sheet order). */
  sheetRows: number[]
  /** The runs they were paid in, the first one first. */
  runIds: string[]
  /** One sentence for the confirm, e.g. "4 of these 30 rows were sent in the pilot and succeeded: they would be paid again." */
  words: string
}

/**
 * What is left of a pilot's workbook (getPilotRest): the rows its batch has not sent, and what
 * they would cost, from the history alone. planRestOfPilot makes the plan to confirm.
 */
export interface PilotRestView {
  environment: string
  /** The pilot's run: the first of the batch the rest completes. */
  pilotRunId: string
  targetKind: 'template' | 'listing'
  /** Rows not sent yet. */
  rowCount: number
  estimateT: number | null
  estimateSource: EstimateSource
  taskFixedFeeT: number | null
  learnedFrom: { runId: string; rows: number; actualCostT: number; costPerRowT: number } | null
  unitLabel: string
}

/** What the buyer chose in a confirmation, as confirmSubmission takes it. */
export interface ConfirmChoice {
  /** The spending cap: the engine refuses when the estimate is above it. */
  maxCostT?: number
  /** Send again rows already sent and accepted (a new paid run). */
  again?: boolean
  /** Send without the address the plan would ask the service to call when the run ends. */
  withoutCallback?: boolean
}

/** What confirmSubmission did. */
export interface SubmissionView {
  environment: string
  clientRequestId: string
  runId: string
  status: string
  /** The previous identical run, when `again` sent a new one on purpose. */
  againOf: string | null
}

/** A journaled submission still waiting for the service's answer (survives a restart). */
export interface PendingSubmissionView {
  environment: string
  clientRequestId: string
  state: 'pending' | 'sent'
  target: RunTarget & { name: string }
  fileName: string
  rowCount: number
  createdAtMs: number
  updatedAtMs: number
  /** The last failure to send, '' when none yet. */
  error: string
}

export interface PendingSubmissionList {
  environment: string
  items: PendingSubmissionView[]
}

/** Pushed when a journaled submission changes state (sending, accepted, refused, still unanswered). */
export interface SubmissionUpdate {
  environment: string
  clientRequestId: string
  state: 'pending' | 'sent' | 'accepted' | 'refused'
  runId: string
  error: string
}

/** Input files being uploaded (pushed while `uploadFiles` works). */
export interface UploadProgressUpdate {
  environment: string
  /** The file this update is about, by its name. */
  name: string
  state: 'hashing' | 'uploading' | 'done' | 'reused' | 'failed'
  sentBytes: number
  totalBytes: number
  overall: { sentBytes: number; totalBytes: number; doneFiles: number; totalFiles: number }
}

/** The input assets made (or found again) for the files, in the order given. */
export interface UploadResultView {
  environment: string
  assets: { name: string; inputAssetId: string; sizeBytes: number; reused: boolean }[]
}
