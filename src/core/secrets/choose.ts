/**
 * Which SecretStore a front door uses, chosen the same way by the command line and the desktop
 * app: the OS keychain when its binding loads and the keychain answers a read; otherwise the
 * front door's fallback (the desktop's encrypted file; for the command line, a store that saves
 * nothing and says what to install). Never plain text. The choice is described for the UI and
 * `doctor`, including a token given by SKILL_RUNNER_TOKEN. Why the keychain was passed over is
 * logged in the binding's words; the view says only what the user can act on.
 */
import type { TokenStorageView } from '../../shared/bridge'
import { failureDetail, keychainAdvice, keychainCommand, probeSecretStore } from './keyring'
import { UnavailableSecretStore, type SecretStore } from './store'

/** A fallback store that also says whether it can save at all, and what to install. */
export interface FallbackSecretStore extends SecretStore {
  usable: boolean
  advice(): string
}

export interface ChooseSecretStoreOptions {
  /** Loads the keychain store; throws or resolves null when the binding cannot load. */
  keychain: () => Promise<SecretStore | null>
  /**
   * The store to use without a keychain; by default one that saves nothing. It gets why the
   * keychain was passed over, in the binding's words, to keep for a log, never to show.
   */
  fallback?: (problem: string) => FallbackSecretStore
  /** True when SKILL_RUNNER_TOKEN gives the token (it is then described as the source). */
  tokenFromEnvironment?: boolean
  log?: (...parts: unknown[]) => void
}

export interface ChosenSecretStore {
  store: SecretStore
  view: TokenStorageView
}

/** A store that saves nothing and says what to install (the command line's fallback). */
export function unavailableFallback(problem: string): FallbackSecretStore {
  const advice = keychainAdvice()
  const store = new UnavailableSecretStore(problem || 'unknown', advice)
  return Object.assign(store, { usable: false, advice: () => advice })
}

export async function chooseSecretStore(
  options: ChooseSecretStoreOptions,
): Promise<ChosenSecretStore> {
  const log = options.log ?? (() => {})
  let problem: string
  try {
    const keychain = await options.keychain()
    problem = keychain
      ? ((await probeSecretStore(keychain)) ?? '')
      : 'the keychain binding (@napi-rs/keyring) is not installed'
    if (keychain && !problem) {
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
  } catch (error) {
    problem = failureDetail(error)
  }
  const fallback = (options.fallback ?? unavailableFallback)(problem)
  log(`system keychain not available (${problem}); using: ${fallback.describe()}`)
  if (options.tokenFromEnvironment && !fallback.usable) {
    return {
      store: fallback,
      view: {
        kind: 'environment',
        description: 'the SKILL_RUNNER_TOKEN environment variable',
        canSaveTokens: false,
        advice: fallback.advice(),
        command: fallback.advice() ? keychainCommand() : '',
      },
    }
  }
  return {
    store: fallback,
    view: {
      kind: fallback.kind,
      description: fallback.describe(),
      canSaveTokens: fallback.usable,
      advice: fallback.advice(),
      command: fallback.advice() ? keychainCommand() : '',
    },
  }
}
