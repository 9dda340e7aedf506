/**
 * What the engine shows the UI across the Bridge. These are plain, serialisable views: no
 * tokens, no functions, no class instances. The same values travel over Electron IPC
 * (structured clone) and over HTTP/WebSocket (JSON) in browser mode.
 */
import type {
  RunDetail,
  RunSummary,
  SchemaColumn,
  SchemaField,
  WorkbookValidation,
} from '../contract'
import type { CreatorListing } from '../contract'

/** Where tokens are kept on this device, as the UI and `doctor` describe it. */
export interface TokenStorageView {
  kind: 'keychain' | 'encrypted-file' | 'environment' | 'memory'
  /** One sentence a non-technical user understands, e.g. "Your system keychain". */
  description: string
  /** False when tokens cannot be saved at all (nothing secure is available). */
  canSaveTokens: boolean
  /** What to install or change to get a proper keychain; empty when nothing is needed. */
  advice: string
}

export interface AppInfo {
  name: string
  version: string
  /** 'electron' inside the desktop app, 'browser' in browser mode. */
  shell: 'electron' | 'browser'
  platform: string
  secretStore: TokenStorageView
}

/** One saved environment. `hasToken` says whether a token is stored; the token never is. */
export interface EnvironmentView {
  name: string
  baseUrl: string
  origin: string
  /** The built-in Sandbox that starts with the app. It cannot be removed. */
  builtIn: boolean
  /** The environment used when none is named. */
  isDefault: boolean
  hasToken: boolean
  /** The label of the environment's amounts (e.g. "credits"); never converted. */
  unitLabel: string
}

export interface EnvironmentList {
  items: EnvironmentView[]
}

/** One step of the connection check: /healthz, /version, then an authenticated call. */
export interface ConnectionStep {
  step: 'healthz' | 'version' | 'auth'
  /** Short title of the step, e.g. "Service reachable". */
  title: string
  ok: boolean
  /** HTTP status when there was an answer, 0 when there was none. */
  status: number
  /** What happened and, when it failed, what to do next. */
  message: string
  /** Steps after a failed one are not attempted. */
  skipped: boolean
  /** The answer's body, for the version step (what the service says it runs). */
  body?: unknown
}

export interface ConnectionReport {
  environment: string
  ok: boolean
  steps: ConnectionStep[]
  /** Where the token for this environment is kept. */
  secretStore: TokenStorageView
}

export interface RunPage {
  environment: string
  items: RunSummary[]
  nextPageToken: string
  totalCount: number
}

export type RunDetailView = RunDetail

// ---- Paid flows: the buyer's view of a listing, plans, confirmations ---------------------------
// Verbs: getListing, planSubmission, confirmSubmission, planRetryFailed, listPendingSubmissions;
// event: submissionUpdated. A plan spends nothing; only confirmSubmission sends, and only with
// `confirmed: true`, under the cap, and (for an identical submission already accepted) `again`.

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

/** What a submission is for. */
export type PlanTarget =
  | { kind: 'template'; templateId: string; name: string }
  | { kind: 'listing'; listingId: string; listingVersionId: string; name: string }

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
export interface SubmissionPlanView {
  /** '' when the workbook is not valid: nothing can be confirmed. */
  planId: string
  environment: string
  expiresAtMs: number
  target: PlanTarget
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
  /** True for listings and retries: the UI must show the cost and ask before confirming. */
  confirmRequired: boolean
  /** The run whose failed rows this plan sends again, or null. */
  retryOfRunId: string | null
  /** One paragraph that says what confirming will do and spend. */
  summary: string
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
  target: PlanTarget
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

/** Pushed when the runs of an environment change (new runs, progress, statuses). */
export interface RunsUpdate {
  environment: string
  items: RunSummary[]
  totalCount: number
  /** Runs that are not finished yet (unknown statuses count as not finished). */
  activeCount: number
}

/** Pushed once when a run reaches a terminal status while the app watches it. */
export interface RunEnded {
  environment: string
  unitLabel: string
  run: RunSummary
}

/** Overall progress of every active run, for the taskbar / dock. */
export interface ActivityUpdate {
  activeRuns: number
  /** Finished tasks (succeeded, failed or cancelled) of the active runs. */
  doneTasks: number
  totalTasks: number
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

/** A run's artifacts being saved to disk (pushed while `downloadRun` works). */
export interface DownloadProgressUpdate {
  environment: string
  runId: string
  doneFiles: number
  totalFiles: number
  receivedBytes: number
}

/** What `downloadRun` saved: where, how many files, and what failed with what to do. */
export interface DownloadResultView {
  environment: string
  runId: string
  /** The run's folder on this computer. */
  folder: string
  savedFiles: number
  /** Files already there from an earlier download. */
  skippedFiles: number
  failed: { artifactId: string; message: string; nextStep: string }[]
}

/** A file the user dropped or picked. */
export interface DroppedFileInfo {
  name: string
  sizeBytes: number
  /** 'path' when the engine read it from disk (desktop), 'bytes' when the page sent it. */
  source: 'path' | 'bytes'
}

// ---- Preparing a run: templates, workbooks, checks (the "New run" screen) ----------------------
// Verbs: listTemplates, getTemplate, saveInputWorkbook, checkWorkbook, cancelCheck,
// getCheckedRows, saveMarkedUpCopy, openSavedFile; event: checkProgress.

/** One official template the app knows for an environment. */
export interface TemplateChoice {
  templateId: string
  name: string
  description: string
  /** 'builtin': one of the built-in Sandbox's own; 'cached': its schema is saved on this computer. */
  source: 'builtin' | 'cached'
  /** When its schema was last fetched (ms since 1970), null when never. */
  fetchedAtMs: number | null
}

export interface TemplateListView {
  environment: string
  items: TemplateChoice[]
  /** True when the service could not be reached: the list is what this computer knows. */
  offline: boolean
}

/** A template's input schema, as the form on screen shows it. */
export interface TemplateView {
  environment: string
  templateId: string
  name: string
  description: string
  version: string
  instructions: string[]
  columns: SchemaColumn[]
  fields: SchemaField[]
  /** When the schema was fetched from the service (ms since 1970). */
  fetchedAtMs: number
  /** True when the service could not be reached and the copy saved on this computer is shown. */
  fromCache: boolean
}

/** What the preparation verbs check a workbook against. */
export type PrepareTarget =
  | { kind: 'template'; templateId: string }
  | { kind: 'listing'; listingId: string; listingVersionId: string }

/**
 * A file the engine made for the user: saved on this computer (desktop: where the user chose in
 * the save dialog), or handed to the page to download (browser mode). Null when cancelled.
 */
export type SavedFileView =
  | { kind: 'path'; fileName: string; path: string; canOpen: boolean }
  | { kind: 'bytes'; fileName: string; mimeType: string; base64: string }

/** Pushed while `checkWorkbook` reads a workbook. */
export interface CheckProgressUpdate {
  checkId: string
  rowsRead: number
}

/** A column of the checked workbook, as it is in the file. */
export interface CheckedColumn {
  /** The column's letter in the sheet (A, B, …). */
  letter: string
  header: string
  /** The field it feeds, or null when it feeds none (an unknown column). */
  fieldKey: string | null
  label: string
  type: string
}

/** One problem of a checked workbook, with where to find it. */
export interface CheckedProblem {
  message: string
  fieldKey: string
  /** The spreadsheet row (1 is the header row). */
  rowNumber: number
  /** 1-based column in the sheet, null when the field has no column (e.g. missing). */
  column: number | null
  /** Index of the row among the rows the grid shows, null when it is not one of them. */
  rowPosition: number | null
}

/** A file named in a file cell: found on this computer, not found, a web address, or unknown. */
export interface FileCellView {
  /** What the cell says (a path relative to the workbook, an absolute path, or a URL). */
  value: string
  rowNumber: number
  fieldKey: string
  /**
   * 'found' / 'missing': checked on this computer (desktop). 'url': sent as a web address.
   * 'unchecked': the page sent the workbook without its folder (browser mode): drop the folder.
   */
  state: 'found' | 'missing' | 'url' | 'unchecked'
}

/** The result of reading and checking a workbook (rows are fetched by `getCheckedRows`). */
export interface WorkbookCheckView {
  checkId: string
  environment: string
  fileName: string
  sizeBytes: number
  /** What it was checked against; null when no template was chosen and the file names none. */
  target: (PrepareTarget & { name: string }) | null
  /** True when the target was read from the workbook's hidden sheet (it was made by the app). */
  targetFromWorkbook: boolean
  valid: boolean
  fileErrors: string[]
  problems: CheckedProblem[]
  /** Rows with data (blank rows skipped). */
  rowCount: number
  columns: CheckedColumn[]
  /** Fields asked once for the whole run, with the value in use ('' when none). */
  runFields: { field: SchemaField; value: string }[]
  fileCells: FileCellView[]
  /** True when the schema was the copy saved on this computer (the service was not reached). */
  schemaFromCache: boolean
  checkedAtMs: number
}

/** A page of a checked workbook's rows, for the grid. */
export interface CheckedRowsView {
  checkId: string
  offset: number
  total: number
  rows: { rowNumber: number; cells: string[]; badColumns: number[] }[]
}

// ---- After the run: run overview, previews, results, history, creator, settings (issue 11) ----

export type ThemeChoice = 'system' | 'light' | 'dark'

/** The app's settings, kept in the engine's history database (never in the window). */
export interface SettingsView {
  /** Where outputs and results workbooks are saved. */
  outputsFolder: string
  /** The folder used when none was chosen (the platform's Downloads/Skill Runner). */
  defaultOutputsFolder: string
  /** A desktop notification when a run submitted from this device ends. */
  notifications: boolean
  /** Files fetched at once while saving outputs. */
  downloadConcurrency: number
  theme: ThemeChoice
}

/** A run as its detail page shows it: the service's detail plus what this device knows. */
export interface RunOverview {
  environment: string
  unitLabel: string
  detail: RunDetail
  /** Submitted from this device (the history knows its input file and row numbers). */
  fromThisDevice: boolean
  inputFilename: string
  /**
   * The spreadsheet row of each submitted row (index = sourceRowIndex) when the rows came from a
   * workbook on this device; null otherwise (rows are then named by their submitted position).
   */
  rowNumbers: number[] | null
  /** The run whose failed rows this one retried ('' when none). */
  retryOfRunId: string
  /** Runs that retried this one's failed rows, from this device. */
  retriedBy: string[]
  /** Where this run's outputs were saved here, and how many files ('' / 0 when not yet). */
  savedFolder: string
  savedFiles: number
  /** The results workbook saved here, '' when not yet. */
  resultsWorkbook: string
}

/** A bounded preview of one artifact's content, fetched by the engine (never a URL or token). */
export interface ArtifactPreviewView {
  artifactId: string
  mimeType: string
  kind: 'text' | 'json' | 'csv' | 'image' | 'none'
  /** Text, JSON (pretty-printed) or CSV source, cut at the preview limit. */
  text: string
  /** CSV as rows of cells (the first rows only). */
  table: string[][]
  /** An image as a data: URL (raster images within the size limit). */
  dataUrl: string
  /** The content was longer than what is shown. */
  truncated: boolean
  /** Why there is no preview, in words ('' when there is one). */
  note: string
}

/** What "Save results workbook" made. */
export interface ResultsWorkbookView {
  environment: string
  runId: string
  /** The workbook's full path. */
  path: string
  /** Where the outputs it links to were saved. */
  folder: string
  rows: number
  failedDownloads: number
}

/** What "Show in folder" did: shown by the desktop, or the path for the user to copy. */
export interface ShowInFolderView {
  path: string
  shown: boolean
}

/** One submission from this device, as the history lists it. */
export interface HistoryEntryView {
  id: number
  environment: string
  target: string
  targetKind: 'template' | 'listing'
  inputFilename: string
  rows: number
  /** pending, sent, accepted or refused (the journal's state). */
  state: string
  error: string
  runId: string
  /** The run's latest status seen here ('' when never seen). */
  runStatus: string
  runName: string
  /** The cost: actual once the run ended, else the estimate (see costIsEstimate). */
  costT: number
  costIsEstimate: boolean
  unitLabel: string
  /** Outputs saved on this device. */
  downloadedFiles: number
  retryOfRunId: string
  /** Runs that retried this submission's run. */
  retries: string[]
  createdAtMs: number
}

export interface HistoryPage {
  items: HistoryEntryView[]
  /** More entries match than were returned. */
  more: boolean
}

export interface ListingPage {
  environment: string
  items: CreatorListing[]
  nextPageToken: string
}

/** The service's detail of a followed run (followRun), pushed whenever it changed. */
export interface RunDetailUpdate {
  environment: string
  detail: RunDetail
}
