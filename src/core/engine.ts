/**
 * The engine's one composition root. Every front door (desktop app, browser mode, CLI) makes one
 * engine with createEngine and talks to the service only through it. It only composes: the
 * history database and the services that own its tables, the environments and their tokens
 * (environments/connector.ts), and the built-in Sandbox. The types modules share live in
 * environments/connection.ts, so no module imports this file but the front doors.
 */
import { join } from 'node:path'
import type { EnvironmentView, TokenKeeping, TokenStorageView } from '../shared/bridge'
import type { RunSummary } from '../shared/contract'
import { nodeHttpFetcher, type ApiClientOptions, type FetchLike } from './service'
import { BuiltInSandbox, type StartBuiltInSandbox } from './environments/builtin-sandbox'
import type { Connection, Target } from './environments/connection'
import { Connections } from './environments/connector'
import { Downloads } from './flows/downloads/downloads'
import type { Plan } from './flows/spend/plan'
import { MAX_PLANS, PLAN_TTL_MS, PlanStore } from './flows/spend/plan-store'
import { spillFolder } from './files/folders'
import { withParts } from './flows/spend/parts'
import { RowLimits } from './flows/spend/row-limits'
import { Environments } from './environments/environments'
import { History } from './storage/run-history'
import { openDb, type Db } from './storage/db'
import { RunRowsTable } from './storage/tables/run-rows'
import { Schemas } from './flows/prepare/schema-cache'
import { ColumnMappings } from './flows/prepare/column-mappings'
import { CallbackAddresses } from './flows/prepare/callback-addresses'
import { PrepareDrafts } from './flows/prepare/draft'
import type { SecretStore } from './secrets'
import { Settings } from './storage/settings'
import { Submissions } from './flows/spend/submissions'
import { Batches } from './flows/batch/batches'
import { Uploads } from './flows/spend/uploads'
import { Usage } from './flows/usage/usage'
import { RunWatcher, type RunWatcherOptions } from './flows/watch/run-watcher'
import { WorkerPool } from './workbooks'

export type { Connection, Target } from './environments/connection'

export interface EngineOptions {
  /** The data folder (see resolveHome). */
  home: string
  fetch?: FetchLike
  secretStore: SecretStore
  /** How the UI and `doctor` describe the token store; derived from secretStore when absent. */
  secretStoreView?: TokenStorageView
  /**
   * Settles once the token store is chosen, when the front door chooses it on first use (the
   * command line): the view above is read only after it.
   */
  secretStoreReady?: () => Promise<unknown>
  /** A token that overrides the stored ones (SKILL_RUNNER_TOKEN), for saved environments. */
  tokenOverride?: string | undefined
  startBuiltInSandbox?: StartBuiltInSandbox
  /**
   * When the program that starts the built-in Sandbox was written to disk (ms): what the Sandbox
   * answered since then about its templates is kept as its answer (flows/prepare/schema-cache.ts).
   */
  programSinceMs?: number
  /** Timeouts and retries of the API clients (tests make them short). */
  api?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'token' | 'fetch'>>
  log?: (line: string) => void
}

/**
 * The engine: composes the services below and connects them to environments. Each service owns
 * its tables (the database and the token store stay private here); the flows take only the
 * narrow services they use (SpendServices, ResultsServices...), which the engine satisfies.
 */
export class Engine {
  readonly home: string
  readonly environments: Environments
  readonly sandbox: BuiltInSandbox
  /** The submission journal. */
  readonly submissions: Submissions
  /** Runs seen and outputs saved on this device. */
  readonly history: History
  /** Each buyer's sheet across the runs made from it. */
  readonly batches: Batches
  /** Runs' rows and outputs as last read from their detail, read back in windows and pages. */
  readonly runRows: RunRowsTable
  readonly uploads: Uploads
  readonly downloads: Downloads
  /** Official template schemas kept for offline use. */
  readonly schemas: Schemas
  /** Column mappings the user confirmed, per template and set of headers. */
  readonly mappings: ColumnMappings
  /** The address last asked to be called when a run ends, per environment and template. */
  readonly callbackAddresses: CallbackAddresses
  /** The New run screen's draft per environment, kept across reloads and restarts. */
  readonly drafts: PrepareDrafts
  /** The service's runs kept for the Usage screen, and the monthly spending limits. */
  readonly usage: Usage
  /** Plans waiting for the user's confirmation (emptied when the engine closes). */
  readonly plans = new PlanStore<Plan>(PLAN_TTL_MS, MAX_PLANS, Date.now, (plan) =>
    withParts(this, plan),
  )
  /** The most rows the service takes in one request, per environment, learnt or set. */
  readonly rowLimits: RowLimits
  /** Where a sheet's rows wait for their plan's confirmation (plan-rows.ts). */
  readonly spillFolder: string
  /** The workbook worker kept between checks, so a later check starts at once. */
  readonly workbookWorker = new WorkerPool()
  private readonly db: Db
  private readonly connections: Connections
  private readonly closeHooks: (() => void)[] = []
  private readonly secretStoreReady: () => Promise<unknown>

  constructor(options: EngineOptions) {
    this.home = options.home
    this.spillFolder = spillFolder(options.home)
    this.secretStoreReady = options.secretStoreReady ?? (() => Promise.resolve())
    this.db = openDb(join(options.home, 'history.db'))
    this.environments = new Environments(this.db)
    // One HTTP client for the engine's life, so every connection's requests share its kept
    // connections (a connection is made per Bridge call).
    const fetch = options.fetch ?? nodeHttpFetcher()
    this.sandbox = new BuiltInSandbox(options.home, options.startBuiltInSandbox, fetch)
    this.connections = new Connections({
      environments: this.environments,
      secrets: options.secretStore,
      sandbox: this.sandbox,
      secretStoreView: options.secretStoreView,
      tokenOverride: options.tokenOverride,
      fetch,
      api: options.api,
      log: options.log ?? (() => {}),
    })
    this.submissions = new Submissions(this.db, join(options.home, 'inputs'))
    this.history = new History(this.db)
    this.runRows = new RunRowsTable(this.db)
    this.batches = new Batches(this.db, this.history, this.runRows)
    this.uploads = new Uploads(this.db)
    this.downloads = new Downloads(this.db)
    this.schemas = new Schemas(this.db, options.programSinceMs)
    this.mappings = new ColumnMappings(this.db)
    this.callbackAddresses = new CallbackAddresses(this.db)
    this.drafts = new PrepareDrafts(this.db, join(options.home, 'drafts'))
    this.usage = new Usage(this.db)
    this.rowLimits = new RowLimits(this.db)
  }

  /** The app's settings (outputs folder, download concurrency, theme), kept in the history. */
  settings(defaultOutputsFolder?: () => string): Settings {
    return new Settings(this.db, defaultOutputsFolder)
  }

  /** Runs once when the engine closes (e.g. a flow's temporary files). */
  onClose(hook: () => void) {
    this.closeHooks.push(hook)
  }

  /** A watcher for the runs of one connection; it records what it sees in the history. */
  watcher(connection: Connection, options?: RunWatcherOptions): RunWatcher {
    const watcher = new RunWatcher(connection.client, options)
    watcher.on('progress', (run) => this.history.recordRuns(connection.historyKey, [run]))
    return watcher
  }

  /** Remembers the latest summary of runs (see History.recordRuns). */
  recordRuns(historyKey: string, runs: RunSummary[]) {
    this.history.recordRuns(historyKey, runs)
  }

  /** How tokens are kept on this device (never a token); see whenSecretStoreChosen. */
  secretStoreView(): TokenStorageView {
    return this.connections.secretStoreView()
  }

  /** Settles when secretStoreView can answer (a front door may choose the store on first use). */
  async whenSecretStoreChosen(): Promise<void> {
    await this.secretStoreReady()
  }

  /** Every environment as the UI shows it (never a token: only whether one is stored). */
  async listEnvironments(): Promise<EnvironmentView[]> {
    const items = await this.connections.listEnvironments()
    return items.map((e) => ({ ...e, monthlyLimitT: this.usage.limit(e.name) }))
  }

  addEnvironment(input: {
    name: string
    baseUrl: string
    token?: string | undefined
    keeping?: TokenKeeping
    unitLabel?: string
  }) {
    return this.connections.addEnvironment(input)
  }

  removeEnvironment(name: string) {
    return this.connections.removeEnvironment(name)
  }

  useEnvironment(name: string) {
    this.connections.useEnvironment(name)
  }

  setToken(name: string, token: string, keeping?: TokenKeeping) {
    return this.connections.setToken(name, token, keeping)
  }

  /** A connection to the target: `--base-url`, `--env`, or the default environment. */
  connect(target: Target = {}): Promise<Connection> {
    return this.connections.connect(target)
  }

  /** The connection check: /healthz, /version, then the authenticated /models. */
  async checkConnection(target: Target) {
    await this.secretStoreReady()
    return this.connections.checkConnection(target)
  }

  async close() {
    this.plans.clear()
    this.workbookWorker.close()
    for (const hook of this.closeHooks.splice(0)) {
      try {
        hook()
      } catch {
        // A hook's failure must not keep the database open.
      }
    }
    await this.sandbox.close()
    this.db.close()
  }
}

export function createEngine(options: EngineOptions): Engine {
  return new Engine(options)
}
