/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, Linux Secret Service) through
 * @napi-rs/keyring, a maintained N-API binding of the Rust keyring crate with prebuilt modules
 * for every platform we ship (README, "Why @napi-rs/keyring"). It is an optional dependency:
 * loadKeyringStore answers null when it is not installed or its native part does not load, and
 * probeSecretStore tells whether the keychain service actually answers. Whatever the binding
 * throws ("zbus error: ...", "Couldn't access platform storage: ...") leaves this file as one
 * SecretStoreError in the user's words; the binding's text travels only as its cause, for a log.
 */
import {
  KEYCHAIN_SERVICE,
  SecretStoreError,
  UnavailableSecretStore,
  type SecretStore,
} from './store'

interface KeyringEntry {
  getPassword(): Promise<string | null | undefined>
  setPassword(password: string): Promise<void>
  deletePassword(): Promise<boolean>
}

interface KeyringBinding {
  AsyncEntry: new (service: string, account: string) => KeyringEntry
  findCredentialsAsync(service: string): Promise<Array<{ account: string; password: string }>>
}

/**
 * A failure of the OS keychain as the user reads it. The binding's errors name D-Bus addresses,
 * platform error names or X11; none of that helps a user, and all of it means the same thing:
 * the keychain is locked or not running.
 */
export function keychainFailure(error: unknown): SecretStoreError {
  if (error instanceof SecretStoreError) return error
  return new SecretStoreError(
    'The system keychain did not let Skill Runner save or read the token.',
    'Unlock the keychain (log in to the desktop session), then try again. If it stays unavailable, restart Skill Runner: it then keeps tokens encrypted in its own file.',
    { cause: error },
  )
}

/** The low-level text behind a keychain failure, for a log line. */
export function failureDetail(error: unknown): string {
  const inner = error instanceof SecretStoreError && error.cause !== undefined ? error.cause : error
  return inner instanceof Error ? inner.message : String(inner)
}

/** Runs one call to the binding; whatever it throws becomes a keychainFailure. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw keychainFailure(error)
  }
}

export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keychain' as const
  private access: Promise<void> | undefined
  constructor(
    private readonly keyring: KeyringBinding,
    private readonly service: string = KEYCHAIN_SERVICE,
  ) {}
  describe() {
    if (process.platform === 'darwin') return 'the macOS Keychain'
    if (process.platform === 'win32') return 'the Windows Credential Manager'
    return 'the system keychain (Secret Service)'
  }
  /**
   * The binding's async read answers null, not an error, when the keychain cannot be reached
   * at all (no Secret Service, no D-Bus session). Listing the service's entries does fail then,
   * so the first read does that once: an unreachable keychain is an error, not a missing token.
   */
  private checkAccess() {
    this.access ??= this.keyring.findCredentialsAsync(this.service).then(
      () => undefined,
      (error: unknown) => {
        this.access = undefined
        throw error instanceof Error ? error : new Error(String(error))
      },
    )
    return this.access
  }
  get(origin: string) {
    return guarded(async () => {
      await this.checkAccess()
      return (await new this.keyring.AsyncEntry(this.service, origin).getPassword()) ?? null
    })
  }
  set(origin: string, token: string) {
    return guarded(() => new this.keyring.AsyncEntry(this.service, origin).setPassword(token))
  }
  delete(origin: string) {
    return guarded(async () => {
      await new this.keyring.AsyncEntry(this.service, origin).deletePassword()
    })
  }
}

/** The keyring store, or null when @napi-rs/keyring is not installed or does not load. */
export async function loadKeyringStore(
  service: string = KEYCHAIN_SERVICE,
): Promise<KeyringSecretStore | null> {
  try {
    const name = '@napi-rs/keyring'
    const loaded = (await import(/* @vite-ignore */ name)) as {
      default?: Partial<KeyringBinding>
    } & Partial<KeyringBinding>
    const binding = loaded.AsyncEntry ? loaded : loaded.default
    if (!binding?.AsyncEntry || typeof binding.findCredentialsAsync !== 'function') return null
    return new KeyringSecretStore(binding as KeyringBinding, service)
  } catch {
    return null
  }
}

/** An origin no one uses, read once to see that the keychain answers at all. */
export const PROBE_ORIGIN = 'https://keychain-probe.skill-runner.invalid'

/**
 * Whether the store answers a read; the binding loads even where no keychain service runs. The
 * answer is null, or why not in the binding's own words: for a log, never for the user.
 */
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
    return failureDetail(error)
  }
}

/** What to install when no keychain works, per platform, in a buyer's words (no command). */
export function keychainAdvice(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'linux') {
    return 'Install a keychain (GNOME Keyring or KWallet), then sign out and in again.'
  }
  return 'Make sure your user account can use the system keychain, then restart Skill Runner.'
}

/** The command that installs a keychain, for Details and the command line; '' where none fits. */
export function keychainCommand(platform: NodeJS.Platform = process.platform): string {
  return platform === 'linux' ? 'sudo apt install gnome-keyring libsecret-1-0' : ''
}

export interface SystemSecretStore {
  store: SecretStore
  /** Why no keychain is used, in the binding's words (for a log); empty when the keychain works. */
  problem: string
  /** What to install, in the user's words; empty when the keychain works. */
  advice: string
}

/**
 * The keychain when the binding loads and the keychain answers; otherwise a store that saves nothing
 * and says what to install. (The desktop app has a further fallback, Electron's safeStorage.)
 */
export async function openSystemSecretStore(): Promise<SystemSecretStore> {
  const keyring = await loadKeyringStore()
  const problem = keyring ? await probeSecretStore(keyring) : '@napi-rs/keyring is not installed'
  if (keyring && !problem) return { store: keyring, problem: '', advice: '' }
  const advice = keychainAdvice()
  return {
    store: new UnavailableSecretStore(problem ?? 'unknown', advice),
    problem: problem ?? '',
    advice,
  }
}
