/**
 * What the engine shows the UI across the Bridge. These are plain, serialisable views: no
 * tokens, no functions, no class instances. The same values travel over Electron IPC
 * (structured clone) and over HTTP/WebSocket (JSON) in browser mode.
 */
import type { RunDetail, RunSummary } from '../contract'

/** Where tokens are kept on this device, as the UI and `doctor` describe it. */
export interface SecretStoreView {
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
  secretStore: SecretStoreView
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
  secretStore: SecretStoreView
}

export interface RunPage {
  environment: string
  items: RunSummary[]
  nextPageToken: string
  totalCount: number
}

export type RunDetailView = RunDetail

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
