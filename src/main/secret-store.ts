/**
 * Which SecretStore the desktop app uses: the OS keychain through keytar when it loads and
 * answers; otherwise Electron's safeStorage (encrypted file); never plain text. The choice and
 * what to install when no keychain works are reported to the UI and to `doctor`.
 */
import type { SecretStoreView } from '../shared/bridge'

/** The SecretStore shape of src/core/secrets. */
export interface TokenStore {
  kind: 'keychain' | 'encrypted-file' | 'environment' | 'memory'
  describe(): string
  get(origin: string): Promise<string | null>
  set(origin: string, token: string): Promise<void>
  delete(origin: string): Promise<void>
}

/** The fallback store also says whether it can save at all, and what to install. */
export interface FallbackTokenStore extends TokenStore {
  usable: boolean
  advice(): string
}

export interface ChooseSecretStoreOptions {
  /** Loads the keychain store (keytar); throws or resolves null when keytar cannot load. */
  keychain: () => Promise<TokenStore | null>
  fallback: () => FallbackTokenStore
  log?: (...parts: unknown[]) => void
}

export interface ChosenSecretStore {
  store: TokenStore
  view: SecretStoreView
}

/** An origin no one uses, read once to see that the keychain answers at all. */
export const PROBE_ORIGIN = 'https://keychain-probe.skill-runner.invalid'

export async function chooseSecretStore(
  options: ChooseSecretStoreOptions,
): Promise<ChosenSecretStore> {
  const log = options.log ?? (() => {})
  let keychainProblem = ''
  try {
    const keychain = await options.keychain()
    if (keychain) {
      // keytar loads even where no keychain service runs; only a call tells.
      await keychain.get(PROBE_ORIGIN)
      return {
        store: keychain,
        view: {
          kind: 'keychain',
          description: keychain.describe(),
          canSaveTokens: true,
          advice: '',
        },
      }
    }
    keychainProblem = 'keytar is not installed'
  } catch (error) {
    keychainProblem = error instanceof Error ? error.message : String(error)
  }
  log(`system keychain not available (${keychainProblem}); using the encrypted token file`)
  const fallback = options.fallback()
  return {
    store: fallback,
    view: {
      kind: fallback.kind,
      description: fallback.describe(),
      canSaveTokens: fallback.usable,
      advice: fallback.advice(),
    },
  }
}
