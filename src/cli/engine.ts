/**
 * The engine of the command line (and of browser mode started from it): data under
 * SKILL_RUNNER_HOME, tokens from SKILL_RUNNER_TOKEN or the OS keychain, the built-in Sandbox
 * started in this process when no other process serves it.
 */
import { join } from 'node:path'
import type { TokenStorageView } from '../shared/bridge'
import { createEngine, type Engine } from '../core/engine'
import { openDataFolder, resolveHome } from '../core/storage/home'
import {
  chooseSecretStore,
  loadKeyringStore,
  type ChosenSecretStore,
  type SecretStore,
} from '../core/secrets'
import { programWrittenAtMs } from './program-time'

export async function makeEngine(env: NodeJS.ProcessEnv): Promise<Engine> {
  const home = resolveHome(env)
  await openDataFolder(home)
  const tokenOverride = env.SKILL_RUNNER_TOKEN?.trim() || undefined
  const tokens = new TokenStoreOnFirstUse(() =>
    chooseSecretStore({
      keychain: () => loadKeyringStore(),
      tokenFromEnvironment: Boolean(tokenOverride),
    }),
  )
  return createEngine({
    home,
    secretStore: tokens,
    secretStoreView: tokens.view,
    secretStoreReady: () => tokens.ready(),
    tokenOverride,
    programSinceMs: programWrittenAtMs(),
    startBuiltInSandbox: async ({ dataDir }) => {
      // The sandbox's code loads only when it starts here: not for --help, not on a saved
      // environment, not when another process already serves it.
      const { startSandbox } = await import('../sandbox')
      const sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        dbPath: join(dataDir, 'sandbox.db'),
      })
      return {
        url: sandbox.url,
        token: sandbox.demoToken ?? sandbox.tokens[0] ?? '',
        close: () => sandbox.close(),
      }
    },
  })
}

/**
 * The token store, chosen (the keychain binding loaded and asked once) the first time a token is
 * read, saved or removed, or when the engine is about to describe it. A command on the built-in
 * Sandbox, which has its own token, never pays for the keychain, and a slow keychain never
 * delays one that does not need it. The choice itself is `chooseSecretStore`'s.
 */
class TokenStoreOnFirstUse implements SecretStore {
  private choice: Promise<ChosenSecretStore> | undefined
  private chosen: ChosenSecretStore | undefined

  constructor(private readonly choose: () => Promise<ChosenSecretStore>) {}

  ready(): Promise<ChosenSecretStore> {
    this.choice ??= this.choose().then((chosen) => (this.chosen = chosen))
    return this.choice
  }

  /** The choice, read where the engine answers at once (after ready, see secretStoreReady). */
  private known(): ChosenSecretStore {
    if (!this.chosen) throw new Error('the token store was described before it was chosen')
    return this.chosen
  }

  get kind() {
    return this.known().store.kind
  }

  describe(): string {
    return this.known().store.describe()
  }

  /** How the UI and `doctor` describe the store, read field by field once it is chosen. */
  readonly view: TokenStorageView = (() => {
    const known = () => this.known().view
    return {
      get kind() {
        return known().kind
      },
      get description() {
        return known().description
      },
      get canSaveTokens() {
        return known().canSaveTokens
      },
      get advice() {
        return known().advice
      },
    }
  })()

  async get(origin: string): Promise<string | null> {
    return (await this.ready()).store.get(origin)
  }

  async set(origin: string, token: string): Promise<void> {
    return (await this.ready()).store.set(origin, token)
  }

  async delete(origin: string): Promise<void> {
    return (await this.ready()).store.delete(origin)
  }
}
