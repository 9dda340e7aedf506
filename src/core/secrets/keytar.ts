/**
 * The OS keychain through keytar (macOS Keychain, Windows Credential Manager, Linux Secret
 * Service). keytar is an optional native dependency: loadKeytarStore answers null when it is not
 * installed, and probeSecretStore tells whether the keychain service actually answers.
 */
import { KEYCHAIN_SERVICE, UnavailableSecretStore, type SecretStore } from './store'

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export class KeytarSecretStore implements SecretStore {
  readonly kind = 'keychain' as const
  constructor(
    private readonly keytar: Keytar,
    private readonly service: string = KEYCHAIN_SERVICE,
  ) {}
  describe() {
    if (process.platform === 'darwin') return 'the macOS Keychain'
    if (process.platform === 'win32') return 'the Windows Credential Manager'
    return 'the system keychain (Secret Service)'
  }
  get(origin: string) {
    return this.keytar.getPassword(this.service, origin)
  }
  set(origin: string, token: string) {
    return this.keytar.setPassword(this.service, origin, token)
  }
  async delete(origin: string) {
    await this.keytar.deletePassword(this.service, origin)
  }
}

/** The keytar store, or null when keytar is not installed or its native part does not load. */
export async function loadKeytarStore(
  service: string = KEYCHAIN_SERVICE,
): Promise<KeytarSecretStore | null> {
  try {
    const name = 'keytar'
    const loaded = (await import(/* @vite-ignore */ name)) as { default?: Keytar } & Partial<Keytar>
    const keytar = loaded.default ?? (loaded as Keytar)
    if (typeof keytar.getPassword !== 'function') return null
    return new KeytarSecretStore(keytar, service)
  } catch {
    return null
  }
}

/** An origin no one uses, read once to see that the keychain answers at all. */
export const PROBE_ORIGIN = 'https://keychain-probe.skill-runner.invalid'

/** Whether the store answers a read; keytar loads even where no keychain service runs. */
export async function probeSecretStore(
  store: SecretStore,
  timeoutMs = 5000,
): Promise<string | null> {
  try {
    await Promise.race([
      store.get(PROBE_ORIGIN),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the keychain did not answer')), timeoutMs).unref(),
      ),
    ])
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** What to install when no keychain works, per platform. */
export function keychainAdvice(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'linux') {
    return 'Install a keychain: on Debian or Ubuntu run "sudo apt install gnome-keyring libsecret-1-0" (KWallet also works), then sign out and in again.'
  }
  return 'Make sure your user account can use the system keychain, then restart Skill Runner.'
}

export interface SystemSecretStore {
  store: SecretStore
  /** Why no keychain is used, and what to install; empty when the keychain works. */
  problem: string
  advice: string
}

/**
 * The keychain when keytar loads and the keychain answers; otherwise a store that saves nothing
 * and says what to install. (The desktop app has a further fallback, Electron's safeStorage.)
 */
export async function openSystemSecretStore(): Promise<SystemSecretStore> {
  const keytar = await loadKeytarStore()
  const problem = keytar ? await probeSecretStore(keytar) : 'keytar is not installed'
  if (keytar && !problem) return { store: keytar, problem: '', advice: '' }
  const advice = keychainAdvice()
  return {
    store: new UnavailableSecretStore(problem ?? 'unknown', advice),
    problem: problem ?? '',
    advice,
  }
}
