/**
 * The engine's one composition root. Every front door (desktop app, browser mode, CLI) makes one
 * engine with createEngine and talks to the service only through it. It owns the history
 * database, the saved environments, the token store, and the built-in Sandbox.
 */
import { join } from 'node:path'
import type {
  ConnectionReport,
  ConnectionStep,
  EnvironmentView,
  SecretStoreView,
} from '../shared/bridge'
import { ApiClient, ApiError, type ApiClientOptions, type FetchLike } from './api'
import { BuiltInSandbox, type StartBuiltInSandbox } from './builtin-sandbox'
import { Environments, normaliseBaseUrl, type SavedEnvironment } from './environments'
import { EngineError } from './errors'
import { openDb, type Db } from './history/db'
import { SecretStoreError, type SecretStore } from './secrets'
import { Submissions } from './submissions'
import { RunWatcher, type RunWatcherOptions } from './watcher'
import type { RunSummary } from '../shared/contract'

export interface EngineOptions {
  /** The data folder (see resolveHome). */
  home: string
  fetch?: FetchLike
  secretStore: SecretStore
  /** How the UI and `doctor` describe the token store; derived from secretStore when absent. */
  secretStoreView?: SecretStoreView
  /** A token that overrides the stored ones (SKILL_RUNNER_TOKEN), for saved environments. */
  tokenOverride?: string | undefined
  startBuiltInSandbox?: StartBuiltInSandbox
  /** Timeouts and retries of the API clients (tests make them short). */
  api?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'token' | 'fetch'>>
  log?: (line: string) => void
}

/** Which environment to talk to: a saved one by name, or any address (`--base-url`). */
export interface Target {
  env?: string | undefined
  baseUrl?: string | undefined
}

/** A ready connection to one environment. */
export interface Connection {
  /** The environment's name; for an ad-hoc `--base-url`, its origin. */
  name: string
  baseUrl: string
  origin: string
  /**
   * Where this environment's data is filed in the history (journal, uploads, schema cache):
   * its origin, or a fixed key for the built-in Sandbox, whose port changes at every start.
   */
  key: string
  builtIn: boolean
  unitLabel: string
  client: ApiClient
}

/** The history key of the built-in Sandbox (see Connection.key). */
export const BUILTIN_HISTORY_KEY = 'builtin:sandbox'

export class Engine {
  readonly home: string
  readonly db: Db
  readonly environments: Environments
  readonly secrets: SecretStore
  readonly fetch: FetchLike
  readonly sandbox: BuiltInSandbox
  /** The submission journal and local history. */
  readonly submissions: Submissions
  private readonly options: EngineOptions
  private readonly log: (line: string) => void

  constructor(options: EngineOptions) {
    this.options = options
    this.home = options.home
    this.db = openDb(join(options.home, 'history.db'))
    this.environments = new Environments(this.db)
    this.secrets = options.secretStore
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init))
    this.sandbox = new BuiltInSandbox(options.home, options.startBuiltInSandbox, this.fetch)
    this.log = options.log ?? (() => {})
    this.submissions = new Submissions(this.db, join(options.home, 'inputs'))
  }

  /** A watcher for the runs of one connection; it records what it sees in the history. */
  watcher(connection: Connection, options?: RunWatcherOptions): RunWatcher {
    const watcher = new RunWatcher(connection.client, options)
    watcher.on('progress', (run) => this.recordRuns(connection.key, [run]))
    return watcher
  }

  /** Remembers the latest summary of runs, so the history can show and search their status. */
  recordRuns(origin: string, runs: RunSummary[]) {
    const upsert = this.db.prepare(
      `INSERT INTO runs_seen (origin, run_id, status, summary_json, seen_at_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(origin, run_id) DO UPDATE SET status = excluded.status, summary_json = excluded.summary_json, seen_at_ms = excluded.seen_at_ms`,
    )
    const now = Date.now()
    for (const run of runs) upsert.run(origin, run.runId, run.status, JSON.stringify(run), now)
  }

  secretStoreView(): SecretStoreView {
    return (
      this.options.secretStoreView ?? {
        kind: this.secrets.kind,
        description: this.secrets.describe(),
        canSaveTokens: this.secrets.kind === 'keychain' || this.secrets.kind === 'encrypted-file',
        advice: '',
      }
    )
  }

  /** Every environment as the UI shows it (never a token: only whether one is stored). */
  async listEnvironments(): Promise<EnvironmentView[]> {
    const defaultName = this.environments.defaultName()
    return Promise.all(
      this.environments.list().map(async (env) => {
        const baseUrl = env.builtIn ? this.sandbox.currentUrl() : env.baseUrl
        const origin = baseUrl ? new URL(baseUrl).origin : ''
        return {
          name: env.name,
          baseUrl,
          origin,
          builtIn: env.builtIn,
          isDefault: env.name === defaultName,
          hasToken: env.builtIn || Boolean(await this.storedToken(origin)),
          unitLabel: env.unitLabel,
        }
      }),
    )
  }

  async addEnvironment(input: {
    name: string
    baseUrl: string
    token?: string | undefined
    unitLabel?: string
  }) {
    const env = this.environments.add(input)
    if (input.token) {
      try {
        await this.secrets.set(new URL(env.baseUrl).origin, input.token)
      } catch (error) {
        // An environment without its token is worse than none: undo and explain.
        this.environments.remove(env.name)
        throw error
      }
    }
    return env
  }

  async removeEnvironment(name: string) {
    const env = this.environments.remove(name)
    const origin = new URL(env.baseUrl).origin
    // The token is bound to the origin; keep it while another environment still uses it.
    const stillUsed = this.environments
      .list()
      .some((other) => !other.builtIn && new URL(other.baseUrl).origin === origin)
    if (!stillUsed) await this.secrets.delete(origin).catch(() => {})
    return env
  }

  useEnvironment(name: string) {
    this.environments.setDefault(name)
  }

  async setToken(name: string, token: string) {
    const env = this.environments.get(name)
    if (env.builtIn) {
      throw new EngineError('refused', 'The built-in Sandbox needs no token.', 'Just use it.')
    }
    const trimmed = token.trim()
    if (!trimmed)
      throw new EngineError(
        'invalid-arguments',
        'The token is empty.',
        'Paste the API token again.',
      )
    await this.secrets.set(new URL(env.baseUrl).origin, trimmed)
  }

  /** A connection to the target: `--base-url`, `--env`, or the default environment. */
  async connect(target: Target = {}): Promise<Connection> {
    if (target.baseUrl) {
      const baseUrl = normaliseBaseUrl(target.baseUrl)
      const origin = new URL(baseUrl).origin
      const saved = this.environments
        .list()
        .find((e) => !e.builtIn && new URL(e.baseUrl).origin === origin)
      return this.makeConnection(
        saved?.name ?? origin,
        baseUrl,
        false,
        saved?.unitLabel ?? 'credits',
      )
    }
    const env = this.environments.get(target.env ?? this.environments.defaultName())
    return this.connectTo(env)
  }

  private async connectTo(env: SavedEnvironment): Promise<Connection> {
    if (env.builtIn) {
      let running
      try {
        running = await this.sandbox.ensure()
      } catch (error) {
        throw new EngineError(
          'unavailable',
          `The built-in Sandbox could not start: ${error instanceof Error ? error.message : String(error)}.`,
          'Restart Skill Runner. If it happens again, remove the "sandbox" folder in the data folder.',
        )
      }
      return this.makeConnection(env.name, running.url, true, env.unitLabel, running.token)
    }
    return this.makeConnection(env.name, env.baseUrl, false, env.unitLabel)
  }

  private makeConnection(
    name: string,
    baseUrl: string,
    builtIn: boolean,
    unitLabel: string,
    fixedToken?: string,
  ): Connection {
    const origin = new URL(baseUrl).origin
    const client = new ApiClient({
      ...this.options.api,
      baseUrl,
      // Only a fetch the caller chose (Electron's net.fetch); otherwise the client picks its
      // own, which streams large request bodies through node:http.
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      token: fixedToken !== undefined ? () => fixedToken : () => this.storedToken(origin),
    })
    return {
      name,
      baseUrl,
      origin,
      key: builtIn ? BUILTIN_HISTORY_KEY : origin,
      builtIn,
      unitLabel,
      client,
    }
  }

  private async storedToken(origin: string): Promise<string | null> {
    if (!origin) return null
    if (this.options.tokenOverride) return this.options.tokenOverride
    try {
      return await this.secrets.get(origin)
    } catch (error) {
      this.log(
        `could not read the token store: ${error instanceof Error ? error.message : String(error)}`,
      )
      return null
    }
  }

  /** The connection check: /healthz, /version, then the authenticated /models. */
  async checkConnection(target: Target): Promise<ConnectionReport> {
    const connection = await this.connect(target)
    const steps: ConnectionStep[] = []
    const client = connection.client
    let failed = false
    const skip = (step: ConnectionStep['step'], title: string) =>
      steps.push({
        step,
        title,
        ok: false,
        status: 0,
        message: 'Not tried: an earlier step failed.',
        skipped: true,
      })

    try {
      const health = await client.healthz({ timeoutMs: 10_000 })
      failed = !health.ok
      steps.push({
        step: 'healthz',
        title: 'Service reachable',
        ok: health.ok,
        status: health.status,
        message: health.ok
          ? `${connection.origin} answered.`
          : `${connection.origin} answered HTTP ${health.status} to the health check. Check the address.`,
        skipped: false,
      })
    } catch (error) {
      failed = true
      steps.push({
        step: 'healthz',
        title: 'Service reachable',
        ok: false,
        status: 0,
        message: messageOf(error),
        skipped: false,
      })
    }

    if (failed) skip('version', 'Interface version')
    else {
      try {
        const version = await client.version({ timeoutMs: 10_000 })
        failed = !version.ok
        const shown = typeof version.body === 'string' ? version.body : JSON.stringify(version.body)
        steps.push({
          step: 'version',
          title: 'Interface version',
          ok: version.ok,
          status: version.status,
          message: version.ok
            ? `Version: ${shown.slice(0, 200)}`
            : `The version check answered HTTP ${version.status}.`,
          skipped: false,
          body: version.body,
        })
      } catch (error) {
        failed = true
        steps.push({
          step: 'version',
          title: 'Interface version',
          ok: false,
          status: 0,
          message: messageOf(error),
          skipped: false,
        })
      }
    }

    if (failed) skip('auth', 'Token accepted')
    else {
      try {
        await client.models({ timeoutMs: 10_000 })
        steps.push({
          step: 'auth',
          title: 'Token accepted',
          ok: true,
          status: 200,
          message: 'The service accepted the token.',
          skipped: false,
        })
      } catch (error) {
        failed = true
        const status = error instanceof ApiError ? error.status : 0
        steps.push({
          step: 'auth',
          title: 'Token accepted',
          ok: false,
          status,
          message: messageOf(error),
          skipped: false,
        })
      }
    }
    return { environment: connection.name, ok: !failed, steps, secretStore: this.secretStoreView() }
  }

  async close() {
    await this.sandbox.close()
    this.db.close()
  }
}

export function createEngine(options: EngineOptions): Engine {
  return new Engine(options)
}

/** "What happened. What to do." for any error. */
export function messageOf(error: unknown): string {
  if (
    error instanceof ApiError ||
    error instanceof EngineError ||
    error instanceof SecretStoreError
  ) {
    return `${error.message} ${error.nextStep}`
  }
  return error instanceof Error ? error.message : String(error)
}
