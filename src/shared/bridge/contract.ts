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
import type { RunStatus } from '../contract'
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
  RunDetailView,
  RunEnded,
  RunPage,
  RunsUpdate,
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
  .refine((value) => {
    try {
      const url = new URL(value)
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
      )
    } catch {
      return false
    }
  }, 'Enter the service address, starting with https:// (for example https://skills.example.com).')

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
const runStatusFilter = z.string().trim().min(1).max(64)

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
  /** Follow an environment's runs: `runsUpdated` events arrive until `unwatchRuns`. */
  watchRuns: request<RunsUpdate>()(
    z.strictObject({ environment: environmentNameSchema, status: runStatusFilter.optional() }),
  ),
  unwatchRuns: request<null>()(z.strictObject({ environment: environmentNameSchema })),
  /** Look again now instead of waiting for the next scheduled refresh. */
  refreshRuns: request<RunsUpdate>()(z.strictObject({ environment: environmentNameSchema })),
  describeFile: request<DroppedFileInfo>()(z.strictObject({ file: fileRefSchema })),
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
}

/** Every event the engine pushes to the UI. */
export interface BridgeEvents {
  environmentsChanged: EnvironmentList
  runsUpdated: RunsUpdate
  runEnded: RunEnded
  activity: ActivityUpdate
  downloadProgress: DownloadProgressUpdate
  uploadProgress: UploadProgressUpdate
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
