/**
 * The names of the Bridge's verbs and events, without their schemas, so the preload can expose
 * exactly these names without bundling the validation code. contract.ts checks at compile time
 * that these lists and the contract name the same things.
 */
import type { RunStatus } from '../contract/statuses'

export const REQUEST_NAMES = [
  'getAppInfo',
  'listEnvironments',
  'addEnvironment',
  'removeEnvironment',
  'useEnvironment',
  'setToken',
  'checkConnection',
  'listRuns',
  'getRun',
  'getListing',
  'planSubmission',
  'confirmSubmission',
  'planRetryFailed',
  'getPilotRest',
  'planRestOfPilot',
  'listPendingSubmissions',
  'resendPendingSubmissions',
  'cancelWork',
  'saveSetAsideRows',
  'watchRuns',
  'unwatchRuns',
  'refreshRuns',
  'describeFile',
  // Preparing a run (the "New run" screen).
  'listTemplates',
  'listCatalog',
  'getTemplate',
  'saveInputWorkbook',
  'checkWorkbook',
  'cancelCheck',
  'getCheckedRows',
  'saveMarkedUpCopy',
  'openSavedFile',
  'uploadFiles',
  'downloadRun',
  'getRunOverview',
  'previewArtifact',
  'getRunRows',
  'getRunOutputs',
  'saveResultsWorkbook',
  'showInFolder',
  'listHistory',
  'listMyListings',
  'getReviewRequest',
  'getPrivateTemplate',
  'getSettings',
  'updateSettings',
  'setUnitLabel',
  'chooseOutputsFolder',
  'followRun',
  'unfollowRun',
  'compareRuns',
  'saveComparison',
  'planRedo',
  'rowVersions',
  'keepRowVersion',
  'earlierPaces',
  'usage',
  'usagePeriodRuns',
  'saveUsageCsv',
  'setMonthlyLimit',
  // The New run screen's draft, kept across reloads and restarts.
  'saveDraft',
  'restoreDraft',
  'clearDraft',
  'resendRunDetail',
  // A buyer's sheet across its runs.
  'getBatch',
  'getBatchRows',
  'planBatchRows',
] as const

export const EVENT_NAMES = [
  'environmentsChanged',
  'runsUpdated',
  'runEnded',
  'activity',
  'downloadProgress',
  'uploadProgress',
  'checkProgress',
  'submissionUpdated',
  'runDetailUpdated',
  'runsReachability',
  'outputsSaved',
  'runDetailChanged',
] as const

export type RequestNameList = (typeof REQUEST_NAMES)[number]
export type EventNameList = (typeof EVENT_NAMES)[number]

/** IPC channel names (Electron). One per verb and per event; nothing else is exposed. */
export const ipcRequestChannel = (name: RequestNameList) => `bridge:${name}`
export const ipcEventChannel = (name: EventNameList) => `bridge-event:${name}`

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
