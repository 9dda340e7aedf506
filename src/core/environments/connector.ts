/**
 * Environments and their tokens, and connections to them: the saved environments, the token
 * store (tokens are bound to an origin and only ever handed to that origin's ApiClient), the
 * built-in Sandbox, and the connection check.
 */
import type { EnvironmentView, TokenKeeping, TokenStorageView } from '../../shared/bridge'
import { checkBaseUrl } from '../../shared/contract'
import { ApiClient, type ApiClientOptions, type FetchLike } from '../service'
import type { BuiltInSandbox } from './builtin-sandbox'
import { BUILTIN_HISTORY_KEY, checkConnection, type Connection, type Target } from './connection'
import { normaliseBaseUrl, type Environments, type SavedEnvironment } from './environments'
import { EngineError } from '../errors'
import { failureDetail, MemorySecretStore, tokenPlace, type SecretStore } from '../secrets'
import { defined } from '../../shared/defined'

export interface ConnectionsOptions {
  environments: Environments
  secrets: SecretStore
  sandbox: BuiltInSandbox
  /** How the UI and `doctor` describe the token store; derived from `secrets` when absent. */
  secretStoreView?: TokenStorageView | undefined
  /** A token that overrides the stored ones (SKILL_RUNNER_TOKEN), for saved environments. */
  tokenOverride?: string | undefined
  fetch?: FetchLike | undefined
  api?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'token' | 'fetch'>> | undefined
  log: (line: string) => void
}

export class Connections {
  private readonly environments: Environments
  private readonly secrets: SecretStore
  private readonly sandbox: BuiltInSandbox
  private readonly log: (line: string) => void
  /** Tokens the user chose to keep for this session only: never written anywhere. */
  private readonly session = new MemorySecretStore()

  constructor(private readonly options: ConnectionsOptions) {
    this.environments = options.environments
    this.secrets = options.secrets
    this.sandbox = options.sandbox
    this.log = options.log
  }

  secretStoreView(): TokenStorageView {
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
    const store = this.secretStoreView()
    return Promise.all(
      this.environments.list().map(async (env) => {
        const baseUrl = env.builtIn ? this.sandbox.currentUrl() : env.baseUrl
        const origin = baseUrl ? new URL(baseUrl).origin : ''
        const token = tokenPlace({
          builtIn: env.builtIn,
          fromEnvironment: Boolean(this.options.tokenOverride),
          inSession: Boolean(origin && (await this.session.get(origin))),
          saved: Boolean(origin && (await this.savedToken(origin))),
          store,
        })
        return {
          name: env.name,
          baseUrl,
          origin,
          builtIn: env.builtIn,
          isDefault: env.name === defaultName,
          hasToken: token.place !== 'none',
          token,
          unitLabel: env.unitLabel,
        }
      }),
    )
  }

  /** Keeps a token where the user chose: the store, or this session's memory (and nowhere else). */
  private async keepToken(origin: string, token: string, keeping: TokenKeeping = 'saved') {
    if (keeping === 'session') {
      await this.session.set(origin, token)
      return
    }
    await this.secrets.set(origin, token)
    // A saved token replaces one held for the session, so the two never disagree.
    await this.session.delete(origin)
  }

  async addEnvironment(input: {
    name: string
    baseUrl: string
    token?: string | undefined
    keeping?: TokenKeeping
    unitLabel?: string
  }) {
    const env = this.environments.add(input)
    if (input.token) {
      try {
        await this.keepToken(new URL(env.baseUrl).origin, input.token, input.keeping)
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
    if (!stillUsed) {
      await this.session.delete(origin)
      await this.secrets.delete(origin).catch(() => {})
    }
    return env
  }

  useEnvironment(name: string) {
    this.environments.setDefault(name)
  }

  async setToken(name: string, token: string, keeping?: TokenKeeping) {
    const env = this.environments.get(name)
    if (env.builtIn) {
      throw new EngineError('refused', 'The built-in Sandbox needs no token.', 'Just use it.')
    }
    const trimmed = token.trim()
    if (!trimmed)
      throw new EngineError('bad-input', 'The token is empty.', 'Paste the API token again.')
    await this.keepToken(new URL(env.baseUrl).origin, trimmed, keeping)
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
    if (env.builtIn) return this.builtInConnection(env)
    return this.makeConnection(env.name, env.baseUrl, false, env.unitLabel)
  }

  /**
   * The built-in Sandbox, started (or found in another process) when the connection first asks
   * it something: a command that only reads what this computer keeps, such as a template's schema
   * the Sandbox gave since this program was installed, never waits for it to start.
   */
  private builtInConnection(env: SavedEnvironment): Connection {
    let opened: Promise<Connection> | undefined
    const open = () =>
      (opened ??= this.sandbox.ensure().then(
        (running) => this.makeConnection(env.name, running.url, true, env.unitLabel, running.token),
        (error: unknown) => {
          opened = undefined
          throw new EngineError(
            'unavailable',
            `The built-in Sandbox could not start: ${error instanceof Error ? error.message : String(error)}.`,
            'Restart Skill Runner. If it happens again, remove the "sandbox" folder in the data folder.',
          )
        },
      ))
    const sandbox = this.sandbox
    return {
      name: env.name,
      get baseUrl() {
        return sandbox.currentUrl()
      },
      get origin() {
        const url = sandbox.currentUrl()
        return url ? new URL(url).origin : ''
      },
      historyKey: BUILTIN_HISTORY_KEY,
      builtIn: true,
      unitLabel: env.unitLabel,
      client: clientOnFirstCall(
        async () => (await open()).client,
        () => sandbox.currentUrl(),
      ),
    }
  }

  private makeConnection(
    name: string,
    baseUrl: string,
    builtIn: boolean,
    unitLabel: string,
    fixedToken?: string,
  ): Connection {
    const check = checkBaseUrl(baseUrl)
    if (!check.ok) {
      throw new EngineError(
        'bad-input',
        `Environment “${name}”: ${check.reason}`,
        'Remove it, then add it again with its https:// address.',
        { action: 'add-environment-again' },
      )
    }
    const origin = check.url.origin
    const client = new ApiClient({
      ...this.options.api,
      baseUrl,
      // The engine's one HTTP client (Electron's net.fetch, or its own over node:http), shared
      // by every connection so their requests reuse its kept connections.
      ...defined({ fetch: this.options.fetch }),
      token: fixedToken !== undefined ? () => fixedToken : () => this.storedToken(origin),
    })
    return {
      name,
      baseUrl,
      origin,
      historyKey: builtIn ? BUILTIN_HISTORY_KEY : origin,
      builtIn,
      unitLabel,
      client,
    }
  }

  private async storedToken(origin: string): Promise<string | null> {
    if (!origin) return null
    if (this.options.tokenOverride) return this.options.tokenOverride
    return (await this.session.get(origin)) ?? this.savedToken(origin)
  }

  private async savedToken(origin: string): Promise<string | null> {
    try {
      return await this.secrets.get(origin)
    } catch (error) {
      this.log(`could not read the token store: ${failureDetail(error)}`)
      return null
    }
  }

  /** The connection check: /healthz, /version, then the authenticated /models (connection.ts). */
  async checkConnection(target: Target) {
    return checkConnection(await this.connect(target), this.secretStoreView())
  }
}

/**
 * A client whose every call first waits for the real one (the built-in Sandbox started). Every
 * method of ApiClient answers a promise, so a caller cannot tell the two apart; its address is
 * '' until then, and `then` is left out so that the client itself is never taken for a promise.
 */
function clientOnFirstCall(real: () => Promise<ApiClient>, url: () => string): ApiClient {
  return new Proxy({} as ApiClient, {
    get(_target, name) {
      if (name === 'baseUrl') return url()
      if (name === 'origin') return url() && new URL(url()).origin
      if (name === 'then' || typeof name === 'symbol') return undefined
      return async (...args: unknown[]) => {
        const client = await real()
        const method = Reflect.get(client, name) as (...a: unknown[]) => unknown
        return method.apply(client, args)
      }
    },
  })
}
