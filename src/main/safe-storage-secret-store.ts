/**
 * A SecretStore for machines where no OS keychain answers: tokens are
 * encrypted with Electron's safeStorage (which itself uses the OS's protected key: DPAPI,
 * the macOS Keychain, or the Linux Secret Service / KWallet) and kept in one JSON file in the
 * app's data folder, written atomically.
 *
 * It never keeps a token in plain text. When safeStorage cannot encrypt, or on Linux falls back
 * to its hard-coded "basic_text" key (which is not a secret), the store refuses to save tokens
 * and says what to install instead.
 */
import { UserFacingError } from '../core/errors'
import { readFile } from 'node:fs/promises'
import { writePrivateJson } from './private-json-file'
import * as z from 'zod'

/** The parts of Electron's safeStorage the store uses (tests pass a stand-in). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  /** Linux only: 'gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6', 'basic_text', 'unknown'. */
  getSelectedStorageBackend?(): string
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
}

export interface SafeStorageSecretStoreOptions {
  safeStorage: SafeStorageLike
  /** The encrypted token file, e.g. <userData>/tokens.enc.json. */
  file: string
  platform: NodeJS.Platform
}

const fileSchema = z.object({
  version: z.literal(1),
  /** origin -> base64 of the encrypted token */
  tokens: z.record(z.string(), z.string()),
})
type TokenFile = z.infer<typeof fileSchema>

/** Advice for a Linux machine without a usable Secret Service. */
export const LINUX_KEYCHAIN_ADVICE =
  'Install a keychain (GNOME Keyring or KWallet), sign out and in again, then restart Skill Runner.'

export class SecretStoreUnavailableError extends UserFacingError {
  readonly category = 'unavailable' as const
  constructor(message: string, nextStep = '', options?: { action?: 'keep-token-for-session' }) {
    super(message, nextStep, options)
    this.name = 'SecretStoreUnavailableError'
  }
}

/** Why safeStorage cannot protect tokens here, or null when it can. */
export function safeStorageProblem(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform,
): string | null {
  if (!safeStorage.isEncryptionAvailable()) {
    return 'This computer offers no way to encrypt saved tokens.'
  }
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown'
    if (backend === 'basic_text' || backend === 'unknown') {
      return 'No keychain (Secret Service or KWallet) is running, so tokens could only be stored in plain text.'
    }
  }
  return null
}

export function adviceFor(platform: NodeJS.Platform): string {
  if (platform === 'linux') return LINUX_KEYCHAIN_ADVICE
  if (platform === 'win32')
    return 'Sign in to Windows with your own user account, then restart Skill Runner.'
  return 'Unlock your login keychain (Keychain Access), then restart Skill Runner.'
}

/** Runs one read-modify-write at a time, so two saves never lose each other's token. */
function createSerialQueue() {
  let queue: Promise<unknown> = Promise.resolve()
  return function serial<T>(task: () => Promise<T>): Promise<T> {
    const next = queue.then(task, task)
    queue = next.catch(() => {})
    return next
  }
}

/** The token file's contents; an empty one when it does not exist yet. */
async function loadTokenFile(file: string): Promise<TokenFile> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tokens: {} }
    throw error
  }
  const parsed = fileSchema.safeParse(JSON.parse(text))
  if (!parsed.success) {
    throw new SecretStoreUnavailableError(
      `The saved-token file ${file} is damaged. Delete it and enter your tokens again.`,
    )
  }
  return parsed.data
}

export function createSafeStorageSecretStore(options: SafeStorageSecretStoreOptions) {
  const { safeStorage, file, platform } = options
  const problem = safeStorageProblem(safeStorage, platform)
  const serial = createSerialQueue()
  const load = () => loadTokenFile(file)
  const save = (data: TokenFile) => writePrivateJson(file, data)

  function refuse(): never {
    throw new SecretStoreUnavailableError(
      `${problem} The token was not saved. ${adviceFor(platform)}`,
      '',
      { action: 'keep-token-for-session' },
    )
  }

  return {
    kind: 'encrypted-file' as const,
    /** False when tokens cannot be saved securely on this machine. */
    usable: problem === null,
    describe(): string {
      if (problem) return `Tokens cannot be saved: ${problem}`
      return 'Tokens are encrypted with your system’s protected storage and kept in the app’s data folder.'
    },
    advice(): string {
      return problem ? adviceFor(platform) : ''
    },
    async get(origin: string): Promise<string | null> {
      if (problem) return null
      const data = await serial(load)
      const sealed = data.tokens[origin]
      if (sealed === undefined) return null
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'))
      } catch {
        throw new SecretStoreUnavailableError(
          `The saved token for ${origin} can no longer be decrypted (the system keychain changed). Enter the token again.`,
        )
      }
    },
    async set(origin: string, token: string): Promise<void> {
      if (problem) refuse()
      const sealed = safeStorage.encryptString(token).toString('base64')
      await serial(async () => {
        const data = await load()
        data.tokens[origin] = sealed
        await save(data)
      })
    },
    async delete(origin: string): Promise<void> {
      if (problem) return
      await serial(async () => {
        const data = await load()
        if (!(origin in data.tokens)) return
        delete data.tokens[origin]
        await save(data)
      })
    },
  }
}
