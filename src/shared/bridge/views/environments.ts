/**
 * Views of the environments and connection screens: the app itself, the saved environments
 * (never their tokens), and the step-by-step connection check.
 */

/**
 * How a token given to the engine is kept: saved where this device keeps tokens (its keychain or
 * the encrypted file), or in the engine's memory for this session only.
 */
export type TokenKeeping = 'saved' | 'session'

/** Where tokens are kept on this device, as the UI and `doctor` describe it. */
export interface TokenStorageView {
  kind: 'keychain' | 'encrypted-file' | 'environment' | 'memory'
  /** One sentence a non-technical user understands, e.g. "Your system keychain". */
  description: string
  /** False when tokens cannot be saved at all (nothing secure is available). */
  canSaveTokens: boolean
  /** What to install or change to get a proper keychain; empty when nothing is needed. */
  advice: string
  /** The command that installs it, shown under Details and by the command line; '' or absent when none. */
  command?: string
}

/**
 * Where one environment's token is, the same words in the header, the sidebar and the dialogs:
 * saved in the keychain (or the desktop's encrypted file), kept for this session only (in the
 * engine's memory, gone when it closes), given by SKILL_RUNNER_TOKEN, or none. Never the token.
 */
export interface TokenPlaceView {
  place: 'built-in' | 'saved' | 'session' | 'environment' | 'none'
  /** Short words, e.g. "Token kept for this session only". */
  label: string
}

export interface AppInfo {
  name: string
  version: string
  /** 'electron' inside the desktop app, 'browser' in browser mode. */
  shell: 'electron' | 'browser'
  platform: string
  secretStore: TokenStorageView
  /** Where tokens go on this computer, in one or two sentences (the sidebar's note). */
  tokenNote: string
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
  /** Where its token is; `hasToken` is true for every place but 'none'. */
  token: TokenPlaceView
  /** The label of the environment's amounts (e.g. "credits"); never converted. */
  unitLabel: string
  /** The monthly spending limit kept on this computer (null or absent: none). */
  monthlyLimitT?: number | null
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
  /** The token step: the service asked for a token and none was given (so none was refused). */
  noToken?: boolean
}

export interface ConnectionReport {
  environment: string
  ok: boolean
  steps: ConnectionStep[]
  /** Where the token for this environment is kept. */
  secretStore: TokenStorageView
}
