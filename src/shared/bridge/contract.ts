/**
 * The Bridge contract: every request the UI can make of the engine (name -> argument schema +
 * result type) and every event the engine pushes to the UI (name -> payload type). Electron IPC
 * and browser mode (HTTP + WebSocket) both carry exactly this contract, so a verb added here is
 * available in both.
 *
 * To add a verb: add an entry to `bridgeRequests` with `request<Result>()(argsSchema)`, then its
 * handler in core/bridge-handlers.ts. To add an event: add it to `BridgeEvents` and to
 * `bridgeEventNames`.
 */
import { z } from 'zod'
import { checkBaseUrl, type PrivateTemplate, type ReviewRequest, type RunStatus } from '../contract'
import type {
  ActivityUpdate,
  AppInfo,
  ConnectionReport,
  DownloadProgressUpdate,
  DownloadResultView,
  DroppedFileInfo,
  UploadProgressUpdate,
  UploadResultView,
  EnvironmentList,
  ListingView,
  PendingSubmissionList,
  RunDetailView,
  RunEnded,
  RunPage,
  RunsUpdate,
  CheckProgressUpdate,
  CheckedRowsView,
  SavedFileView,
  TemplateListView,
  TemplateView,
  WorkbookCheckView,
  SubmissionPlanView,
  SubmissionUpdate,
  SubmissionView,
} from './views'
import type {
  ArtifactPreviewView,
  HistoryPage,
  ListingPage,
  ResultsWorkbookView,
  RunOverview,
  RunDetailUpdate,
  SettingsView,
  ShowInFolderView,
} from './views'
import { EVENT_NAMES, REQUEST_NAMES, type EventNameList, type RequestNameList } from './names'

/** A request's argument schema, with its result type carried along for the type checker. */
export interface RequestSpec<Args extends z.ZodType, Result> {
  readonly args: Args
  /** Never set; it only carries the result type. */
  readonly result?: Result
}

/** `request<Result>()(argsSchema)` declares one verb. */
export function request<Result>() {
  return <Args extends z.ZodType>(args: Args): RequestSpec<Args, Result> => ({ args })
}

// Argument pieces. Objects are strict: an unexpected key is refused, not ignored.

export const environmentNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the environment a name.')
  .max(64, 'Use a name of at most 64 characters.')
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'Use letters, digits, spaces, dots, dashes or underscores.')

export const baseUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const check = checkBaseUrl(value)
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason })
  })

export const tokenSchema = z
  .string()
  .trim()
  .min(1, 'Paste the API token, or leave the field empty.')
  .max(8192, 'That token is too long to be an API token.')
  .regex(/^[\x21-\x7e]+$/, 'A token has no spaces or special characters; paste it again.')

/** A file the user dropped: by path in the desktop app, by content in a browser. */
export const fileRefSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('path'),
    path: z.string().min(1).max(4096),
    name: z.string().min(1).max(1024),
  }),
  z.strictObject({
    kind: z.literal('bytes'),
    name: z.string().min(1).max(1024),
    /** The file's content, base64. */
    base64: z.string().max(200 * 1024 * 1024),
  }),
])
export type FileRef = z.infer<typeof fileRefSchema>

const noArgs = z.strictObject({})
const prepareIdSchema = z.string().trim().min(1, 'Enter an id.').max(256)
const checkIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/)
const idSchema = z.string().trim().min(1).max(256)
/** Most uploads a plan takes for a workbook's file cells (as many as a check lists). */
export const MAX_FILE_ASSETS = 5000

/** What a submission is for: an official template, or a listing at the version shown. */
export const planTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('template'), templateId: idSchema }),
  z.strictObject({ kind: z.literal('listing'), listingId: idSchema, listingVersionId: idSchema }),
])
export type PlanTargetArgs = z.infer<typeof planTargetSchema>
/** What the preparation verbs check a workbook against: the same targets a plan takes. */
export const prepareTargetSchema = planTargetSchema
const runStatusFilter = z.string().trim().min(1).max(64)
const runIdSchema = z.string().min(1).max(256)
const runRef = z.strictObject({ environment: environmentNameSchema, runId: runIdSchema })

/** What Settings may change; every key optional, nothing else accepted. */
export const settingsPatchSchema = z.strictObject({
  outputsFolder: z
    .string()
    .trim()
    .min(1, 'Choose a folder for the outputs.')
    .max(4096)
    .refine(
      (p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'),
      'Give the folder’s full path, e.g. /home/me/Outputs or C:\\Users\\me\\Outputs.',
    )
    .optional(),
  notifications: z.boolean().optional(),
  downloadConcurrency: z
    .number()
    .int('Use a whole number.')
    .min(1, 'Use at least 1.')
    .max(32, 'Use at most 32.')
    .optional(),
  theme: z.enum(['system', 'light', 'dark']).optional(),
})

export const bridgeRequests = {
  getAppInfo: request<AppInfo>()(noArgs),
  listEnvironments: request<EnvironmentList>()(noArgs),
  addEnvironment: request<EnvironmentList>()(
    z.strictObject({
      name: environmentNameSchema,
      baseUrl: baseUrlSchema,
      /** Goes straight to the engine's SecretStore; never sent back. */
      token: tokenSchema.optional(),
    }),
  ),
  removeEnvironment: request<EnvironmentList>()(z.strictObject({ name: environmentNameSchema })),
  useEnvironment: request<EnvironmentList>()(z.strictObject({ name: environmentNameSchema })),
  setToken: request<EnvironmentList>()(
    z.strictObject({ name: environmentNameSchema, token: tokenSchema }),
  ),
  checkConnection: request<ConnectionReport>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  listRuns: request<RunPage>()(
    z.strictObject({
      environment: environmentNameSchema,
      status: runStatusFilter.optional(),
      pageSize: z.number().int().min(1).max(200).optional(),
      pageToken: z.string().max(4096).optional(),
    }),
  ),
  getRun: request<RunDetailView>()(
    z.strictObject({ environment: environmentNameSchema, runId: z.string().min(1).max(256) }),
  ),
  /** A marketplace listing as a buyer sees it (schema, fee, terms), whoever created it. */
  getListing: request<ListingView>()(
    z.strictObject({ environment: environmentNameSchema, listingId: idSchema }),
  ),
  /**
   * Reads and validates a workbook for a template or a listing and works out what sending it
   * costs. Spends nothing; the plan is kept by the engine for confirmSubmission.
   */
  planSubmission: request<SubmissionPlanView>()(
    z.strictObject({
      environment: environmentNameSchema,
      file: fileRefSchema,
      target: planTargetSchema,
      /** Send only the first N rows (a pilot). */
      pilotRows: z.number().int().min(1).max(1_000_000).optional(),
      /** Values of run-scoped fields, by field key, for every row. */
      runValues: z.record(z.string().min(1).max(256), z.unknown()).optional(),
      /**
       * For a workbook sent as bytes (browser mode): the files already uploaded (uploadFiles)
       * for its file cells, by the cell's text as written. Such a workbook's file cells are
       * matched to these only; no path it names is read.
       */
      fileAssets: z
        .array(
          z.strictObject({
            path: z.string().trim().min(1).max(4096),
            inputAssetId: idSchema,
          }),
        )
        .max(MAX_FILE_ASSETS)
        .optional(),
    }),
  ),
  /**
   * Sends a plan: the only verb that spends. Refused without `confirmed: true`, above
   * `maxCostT`, and for an identical submission already accepted unless `again` is true.
   * A lost answer is resent with the same clientRequestId, so it makes at most one run.
   */
  confirmSubmission: request<SubmissionView>()(
    z.strictObject({
      environment: environmentNameSchema,
      planId: z.string().min(1).max(128),
      confirmed: z.literal(true),
      maxCostT: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      again: z.boolean().optional(),
    }),
  ),
  /** The failed rows of a finished run made on this device, as a plan (confirm it as above). */
  planRetryFailed: request<SubmissionPlanView>()(
    z.strictObject({ environment: environmentNameSchema, runId: idSchema }),
  ),
  /** Submissions sent but not answered yet, e.g. after a crash: a "sending" state that lasts. */
  listPendingSubmissions: request<PendingSubmissionList>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  /** Follow an environment's runs: `runsUpdated` events arrive until `unwatchRuns`. */
  watchRuns: request<RunsUpdate>()(
    z.strictObject({ environment: environmentNameSchema, status: runStatusFilter.optional() }),
  ),
  unwatchRuns: request<null>()(z.strictObject({ environment: environmentNameSchema })),
  /** Look again now instead of waiting for the next scheduled refresh. */
  refreshRuns: request<RunsUpdate>()(z.strictObject({ environment: environmentNameSchema })),
  describeFile: request<DroppedFileInfo>()(z.strictObject({ file: fileRefSchema })),
  // ---- Preparing a run (the "New run" screen) ----
  /** The official templates the app knows here: the built-in Sandbox's, and those cached. */
  listTemplates: request<TemplateListView>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  /** A template's schema: fresh from the service, or the saved copy (with its age) offline. */
  getTemplate: request<TemplateView>()(
    z.strictObject({ environment: environmentNameSchema, templateId: prepareIdSchema }),
  ),
  /**
   * "Get the input workbook": the desktop app asks where to save it (null when cancelled); a
   * browser gets the bytes to download.
   */
  saveInputWorkbook: request<SavedFileView | null>()(
    z.strictObject({ environment: environmentNameSchema, target: prepareTargetSchema }),
  ),
  /**
   * Reads and checks a workbook in a worker (`checkProgress` events follow; `cancelCheck` stops
   * it). Without a target, a workbook made by the app names its own. Spends nothing, works
   * offline with a saved schema.
   */
  checkWorkbook: request<WorkbookCheckView>()(
    z.strictObject({
      environment: environmentNameSchema,
      /** Made by the page, so it can cancel the check while it runs. */
      checkId: checkIdSchema,
      file: fileRefSchema,
      target: prepareTargetSchema.optional(),
      /** Values of run-scoped fields from the form, by field key (they win over the sheet). */
      runValues: z.record(prepareIdSchema, z.string().max(10_000)).optional(),
    }),
  ),
  cancelCheck: request<null>()(z.strictObject({ checkId: checkIdSchema })),
  /** Rows of a checked workbook for the grid, as the user typed them, bad cells marked. */
  getCheckedRows: request<CheckedRowsView>()(
    z.strictObject({
      checkId: checkIdSchema,
      offset: z.number().int().min(0).max(10_000_000),
      limit: z.number().int().min(1).max(2000),
    }),
  ),
  /** "Save a marked-up copy": the workbook with its bad cells marked and an Errors sheet. */
  saveMarkedUpCopy: request<SavedFileView | null>()(z.strictObject({ checkId: checkIdSchema })),
  /** Opens a file the app saved in this session with the system's app for it (desktop only). */
  openSavedFile: request<null>()(z.strictObject({ path: z.string().min(1).max(4096) })),
  /** Uploads dropped files as input assets (once per content): `uploadProgress` events follow. */
  uploadFiles: request<UploadResultView>()(
    z.strictObject({
      environment: environmentNameSchema,
      files: z.array(fileRefSchema).min(1).max(500),
    }),
  ),
  /**
   * Saves every artifact of a run into a folder the app chooses (the desktop app asks with its
   * own folder dialog; a browser gets the Downloads folder): `downloadProgress` events follow.
   */
  downloadRun: request<DownloadResultView | null>()(
    z.strictObject({ environment: environmentNameSchema, runId: z.string().min(1).max(256) }),
  ),
  // ---- After the run (issue 11) ----
  /** A run with what this device knows of it (input file, row numbers, retries, saves). */
  getRunOverview: request<RunOverview>()(runRef),
  /** A bounded preview of one artifact (text, JSON, CSV, image), fetched by the engine. */
  previewArtifact: request<ArtifactPreviewView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: runIdSchema,
      artifactId: z.string().min(1).max(256),
    }),
  ),
  /** Writes the results workbook (and saves the outputs it links to): `downloadProgress` follows. */
  saveResultsWorkbook: request<ResultsWorkbookView>()(runRef),
  /** Shows a run's saved outputs (or its results workbook) in the file manager, or says where. */
  showInFolder: request<ShowInFolderView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: runIdSchema,
      item: z.enum(['outputs', 'results', 'artifact']),
      /** With item 'artifact': which saved output. */
      artifactId: z.string().min(1).max(256).optional(),
    }),
  ),
  /** Every submission from this device, newest first, searchable offline. */
  listHistory: request<HistoryPage>()(
    z.strictObject({
      search: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
  ),
  listMyListings: request<ListingPage>()(
    z.strictObject({
      environment: environmentNameSchema,
      search: z.string().max(200).optional(),
      pageSize: z.number().int().min(1).max(500).optional(),
      pageToken: z.string().max(4096).optional(),
    }),
  ),
  getReviewRequest: request<ReviewRequest>()(
    z.strictObject({ environment: environmentNameSchema, id: z.string().trim().min(1).max(256) }),
  ),
  getPrivateTemplate: request<PrivateTemplate>()(
    z.strictObject({
      environment: environmentNameSchema,
      templateId: z.string().trim().min(1, 'Enter the template’s ID.').max(256),
    }),
  ),
  getSettings: request<SettingsView>()(noArgs),
  updateSettings: request<SettingsView>()(settingsPatchSchema),
  /** The label of an environment's amounts (e.g. "credits"); amounts are never converted. */
  setUnitLabel: request<EnvironmentList>()(
    z.strictObject({
      environment: environmentNameSchema,
      unitLabel: z
        .string()
        .trim()
        .min(1, 'Give the unit a name, e.g. credits.')
        .max(32, 'Use at most 32 characters.'),
    }),
  ),
  /** The desktop's folder picker for the outputs folder: the new settings, or null if cancelled. */
  chooseOutputsFolder: request<SettingsView | null>()(noArgs),
  /**
   * An open run detail follows its run, wherever it sits in the runs list: `runDetailUpdated`
   * events arrive while it changes, `runEnded` when it ends, until `unfollowRun`.
   */
  followRun: request<null>()(runRef),
  unfollowRun: request<null>()(runRef),
}

/** Every event the engine pushes to the UI. */
export interface BridgeEvents {
  environmentsChanged: EnvironmentList
  runsUpdated: RunsUpdate
  runEnded: RunEnded
  activity: ActivityUpdate
  downloadProgress: DownloadProgressUpdate
  uploadProgress: UploadProgressUpdate
  checkProgress: CheckProgressUpdate
  submissionUpdated: SubmissionUpdate
  runDetailUpdated: RunDetailUpdate
}

export type BridgeRequests = typeof bridgeRequests
export type RequestName = keyof BridgeRequests
export type BridgeEventName = keyof BridgeEvents

// names.ts lists the same names for the preload; these lines fail to compile when they differ.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const requestNamesMatch: Same<RequestName, RequestNameList> = true
const eventNamesMatch: Same<BridgeEventName, EventNameList> = true
void requestNamesMatch
void eventNamesMatch

export const requestNames: readonly RequestName[] = REQUEST_NAMES
export const bridgeEventNames: readonly BridgeEventName[] = EVENT_NAMES

/** The arguments a verb accepts (after parsing). */
export type RequestArgs<K extends RequestName> = z.output<BridgeRequests[K]['args']>
/** The arguments a caller passes (before parsing: optional fields may be left out). */
export type RequestInput<K extends RequestName> = z.input<BridgeRequests[K]['args']>
export type RequestResult<K extends RequestName> =
  BridgeRequests[K] extends RequestSpec<z.ZodType, infer R> ? R : never

export function isRequestName(name: string): name is RequestName {
  return Object.prototype.hasOwnProperty.call(bridgeRequests, name)
}

export function isEventName(name: string): name is BridgeEventName {
  return (bridgeEventNames as readonly string[]).includes(name)
}

/** Statuses offered in the runs filter; the service may send others, shown verbatim. */
export const RUN_FILTER_STATUSES: readonly RunStatus[] = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
]

/** Browser mode: where requests go and what the WebSocket negotiates. */
export const WEB_BRIDGE_PATH = '/bridge/'
export const WEB_EVENTS_PATH = '/events'
export const WEB_SECRET_HEADER = 'x-skill-runner-secret'
export const WEB_SUBPROTOCOL = 'skill-runner.v1'
/** The secret travels as a second offered subprotocol: `secret.<value>`; it is never echoed. */
export const WEB_SECRET_SUBPROTOCOL_PREFIX = 'secret.'
