/**
 * The Bridge contract: every request the UI can make of the engine (name -> argument schema +
 * result type) and every event the engine pushes to the UI (name -> payload type). Electron IPC
 * and browser mode (HTTP + WebSocket) both carry exactly this contract, so a verb added here is
 * available in both.
 *
 * The verbs are declared by screen or domain in requests/ and gathered here (views/ holds what
 * they answer). To add a verb: add an entry to its group with `request<Result>()(argsSchema)`
 * and its name to REQUEST_NAMES in names.ts, then its handler in core/bridge/service.ts. To add
 * an event: add it to `BridgeEvents` and its name to EVENT_NAMES in names.ts.
 */
import type * as z from 'zod'
import type {
  ActivityUpdate,
  CheckProgressUpdate,
  DownloadProgressUpdate,
  DownloadResultView,
  EnvironmentList,
  RunDetailChange,
  RunDetailUpdate,
  RunsReachability,
  RunEnded,
  RunsUpdate,
  SubmissionUpdate,
  UploadProgressUpdate,
} from './views'
import { REQUEST_NAMES, type EventNameList, type RequestNameList } from './names'
import type { RequestSpec } from './requests/arguments'
import { afterRunRequests } from './requests/after-run'
import { batchRequests } from './requests/batches'
import { compareRequests } from './requests/compare'
import { redoRequests } from './requests/redo'
import { paceRequests } from './requests/pace'
import { usageRequests } from './requests/usage'
import { creatorRequests } from './requests/creator'
import { draftRequests } from './requests/drafts'
import { environmentRequests } from './requests/environments'
import { setAsideRequests } from './requests/set-aside'
import { prepareRequests } from './requests/prepare'
import { runRequests } from './requests/runs'
import { settingsRequests } from './requests/settings'
import { spendingRequests } from './requests/spending'

export type { FileRef, RequestSpec } from './requests/arguments'
export type { DraftStep, PrepareDraft } from './requests/draft-schema'

export const bridgeRequests = {
  ...environmentRequests,
  ...runRequests,
  ...spendingRequests,
  ...setAsideRequests,
  ...prepareRequests,
  ...afterRunRequests,
  ...creatorRequests,
  ...settingsRequests,
  ...compareRequests,
  ...redoRequests,
  ...paceRequests,
  ...usageRequests,
  ...draftRequests,
  ...batchRequests,
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
  runsReachability: RunsReachability
  /** A run's outputs saved on their own when it ended (the "keep outputs" setting). */
  outputsSaved: DownloadResultView
  /** A big followed run's detail, whole once and then as what changed (see RunDetailChange). */
  runDetailChanged: RunDetailChange
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

/** The arguments a verb accepts (after parsing). */
export type RequestArgs<K extends RequestName> = z.output<BridgeRequests[K]['args']>
/** The arguments a caller passes (before parsing: optional fields may be left out). */
export type RequestInput<K extends RequestName> = z.input<BridgeRequests[K]['args']>
export type RequestResult<K extends RequestName> =
  BridgeRequests[K] extends RequestSpec<z.ZodType, infer R> ? R : never

export function isRequestName(name: string): name is RequestName {
  return Object.prototype.hasOwnProperty.call(bridgeRequests, name)
}
