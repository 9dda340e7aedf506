/**
 * What a plan is: the rows to send, to which target, at what estimated cost, and what the history
 * knows of an identical submission. Plans are made by plan-submission.ts and plan-retry.ts,
 * described by describe-plan.ts, and sent by confirm.ts; planning spends nothing.
 */
import type { LimitStanding } from '../usage/limit'
import type { InputRow, WorkbookValidation } from '../../../shared/contract'
import type {
  EstimateSource,
  BatchSendKind,
  FixableRowView,
  ListingSource,
} from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import type { AmountT } from '../../../shared/format/amounts'
import type { Connection } from '../../environments/connection'
import type { Schemas } from '../prepare/schema-cache'
import type { History } from '../../storage/run-history'
import type { BatchLink, Batches } from '../batch/batches'
import type { PlanStore } from './plan-store'
import type { PlanRows } from './plan-rows'
import type { RowLimits } from './row-limits'
import type { SetAsideFile } from './set-aside'
import type { SubmissionHead, Submissions } from './submissions'
import type { Uploads } from './uploads'
import type { RowSelection } from './submission-inputs'
import type { ColumnMap } from '../../workbooks'

/** The workbook a send reads, and what goes with its plan. */
export interface SendWorkbook {
  /** The buyer's workbook (xlsx or csv) on this computer. */
  file: string
  /** The name to show for it, when `file` is a temporary copy (a page's bytes). */
  fileName?: string | undefined
  /** A folder to remove once the plan is gone (a page's bytes written to disk). */
  scratch?: string | undefined
}

/**
 * What the user chose for a send: one bundle, made once by a front door (the Bridge's
 * planSubmission, the command line's run and execute, a batch's rows) and passed down whole.
 */
export interface SendChoices {
  /** A template's may carry the address to call when the run ends. */
  target: RunTarget
  /** The sheet to read, in a workbook of several. */
  sheet?: string | undefined
  /** The user's own mapping of the sheet's columns; without it, the one remembered for them. */
  mapping?: ColumnMap | undefined
  /**
   * Send only the valid rows; the others go to a workbook to fix, at `path` (the user's choice),
   * else kept in the data folder with the run.
   */
  setAside?: { path?: string | undefined } | undefined
  /** Which rows: the first N (a pilot) or a range of sheet rows; all by default. */
  selection?: RowSelection | undefined
  /** Values of run-scoped fields for every row (field key -> value). */
  runValues?: Record<string, unknown> | undefined
}

/** How a batch's own rows, read again from its sheet, go in the batch. */
export interface BatchPlace {
  /** How the rows are sent within their batch (by default: all, a pilot, or the valid rows). */
  sendKind?: BatchSendKind | undefined
  /** The first run of the batch these rows complete (the rest of a pilot). */
  batchOfRunId?: string | undefined
  /** The values of run-scoped fields are taken from this row (an earlier submission's). */
  runValuesFrom?: InputRow | undefined
}

/** What planSubmission prices: the sheet as read (set aside, copied) and where its rows go. */
export interface PlanRequest
  extends SendWorkbook, Pick<SendChoices, 'target' | 'selection' | 'runValues'>, BatchPlace {
  /** The user's own workbook, when `file` is a copy made for the service (a listing's). */
  sheetFile?: string | undefined
  /** These rows were set aside from this run and fixed: they are its follow-up. */
  followUpOf?: string | undefined
  /** The rows were found to have problems here already: the service is not asked to check too. */
  checkedHere?: boolean | undefined
}

/** Rows of a plan that its batch already paid for (succeeded, or still running). */
export interface PaidBefore {
  sheetRows: number[]
  runIds: string[]
  /** The same in one sentence, for the confirm and the refusal. */
  words: string
}

export interface LearnedCost {
  runId: string
  rows: number
  actualCostT: AmountT
  costPerRowT: AmountT
}

/** Rows `start` (included) to `end` (excluded) of a plan, by position in `plan.rows`. */
export interface PartRange {
  start: number
  end: number
}

/** One part of a plan, with the journal's entry of it when one was journaled before. */
export interface PlanPart extends PartRange {
  entry: SubmissionHead | null
}

export interface PlanParts {
  /** The most rows in one part, and where that limit comes from. */
  size: number
  source: 'learnt' | 'set'
  parts: PlanPart[]
}

/** A plan the engine keeps until it is confirmed, replaced or expires. */
export interface Plan {
  id: string
  connection: Connection
  /** What the rows go to, the listing's fee included once read. */
  target: RunTarget
  /** The same as a screen shows it. */
  targetView: RunTarget & { name: string }
  file: string
  fileName: string
  /** The buyer's own workbook when `file` is a copy made for the service; journaled in its place. */
  sheetFile?: string | undefined
  /** The rows to send, read a run at a time (plan-rows.ts). */
  rows: PlanRows
  rowNumbers: number[]
  rowNumbering: 'spreadsheet' | 'submitted'
  totalRows: number
  pilotRows: number | null
  taskFixedFeeT: AmountT | null
  estimateT: AmountT | null
  estimateSource: EstimateSource
  learnedFrom: LearnedCost | null
  terms: string
  schemaSource: ListingSource | 'template'
  validation: WorkbookValidation
  fingerprint: string
  duplicateOf: SubmissionHead | null
  unansweredOf: SubmissionHead | null
  confirmRequired: boolean
  retryOfRunId: string | null
  /** The first run of the batch this plan completes (the pilot's, for the rest of its rows). */
  batchOfRunId: string | null
  /** Rows the user chose to send again (plan-redo.ts), not the failed ones of a retry. */
  redo?: boolean | undefined
  /** The batch the rows belong to and how they are sent; confirming joins the submission to it. */
  batch?: BatchLink | undefined
  /** Rows the batch already paid for: sent again only when the user says so (`again`). */
  paidBefore?: PaidBefore | null | undefined
  createdAtMs: number
  expiresAtMs: number
  scratch?: string | undefined
  /** The rows with problems, set aside in a workbook to fix (only the valid ones are sent). */
  setAside?: SetAsideFile | undefined
  /** These rows were set aside from this run and fixed: they are its follow-up. */
  followsSetAsideOf?: string | undefined
  /** Made on the New run screen: once it is sent, that screen's draft becomes its run. */
  fromNewRun?: boolean | undefined
  /** A retry's failed rows with their cells as sent, for the user to fix (retry-edits.ts). */
  fixableRows?: FixableRowView[] | undefined
  /** The fixes a corrected workbook made to the failed rows (retry-workbook.ts). */
  fixesFromWorkbook?: { row: number; cells: Record<string, string> }[] | undefined
  /** Where this month's spending stands against the environment's limit (flows/usage/limit.ts). */
  monthlyLimit?: LimitStanding | null | undefined
  /** More rows than the service takes in one request: the parts they go as (parts.ts). */
  parts?: PlanParts | undefined
}

/** What planning and confirming need of the engine (the engine itself has all of it). */
export interface SpendServices {
  history: Pick<History, 'seenRun' | 'recordRuns'>
  submissions: Submissions
  schemas: Pick<Schemas, 'template'>
  uploads: Pick<Uploads, 'files'>
  plans: PlanStore<Plan>
  batches: Pick<Batches, 'ofRun' | 'ofSheet' | 'state' | 'join' | 'byId' | 'sendsOf'>
  /** The most rows one request may carry, per environment (row-limits.ts). */
  rowLimits: Pick<RowLimits, 'of' | 'learn'>
  /** Where a sheet's rows are kept while its plan waits (plan-rows.ts); in memory without it. */
  spillFolder?: string
}
