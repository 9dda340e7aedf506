/**
 * Where API tokens live. One token per environment, keyed by the environment's origin. Only the
 * engine reads a token, and only ApiClient sends it.
 */

import { UserFacingError } from '../errors'

export type SecretStoreKind = 'keychain' | 'encrypted-file' | 'environment' | 'memory'

export interface SecretStore {
  kind: SecretStoreKind
  /** One sentence a non-technical user understands, e.g. "your system keychain". */
  describe(): string
  get(origin: string): Promise<string | null>
  set(origin: string, token: string): Promise<void>
  delete(origin: string): Promise<void>
}

/**
 * Raised when a token cannot be saved or read; the message says what to install or do instead.
 * A low-level failure behind it (the keychain binding's own text) is its `cause`, for a log only.
 */
export class SecretStoreError extends UserFacingError {
  readonly code = 'secret-store'
  readonly category = 'unavailable' as const
  constructor(
    message: string,
    nextStep: string,
    options?: { cause?: unknown; action?: 'keep-token-for-session' },
  ) {
    super(message, nextStep, options)
    this.name = 'SecretStoreError'
  }
}

/** What saving a token says when nothing secure can hold it, in every front door. */
export const NO_SECURE_PLACE = 'There is no secure place on this computer to save the token.'

/** The keychain service name tokens are filed under (DESIGN.md, token binding). */
export const KEYCHAIN_SERVICE = 'skill-runner'

/** Tokens kept in memory only: tests, and a last resort that saves nothing to disk. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const
  private readonly tokens = new Map<string, string>()
  describe() {
    return 'memory only (tokens are forgotten when Skill Runner closes)'
  }
  async get(origin: string) {
    return this.tokens.get(origin) ?? null
  }
  async set(origin: string, token: string) {
    this.tokens.set(origin, token)
  }
  async delete(origin: string) {
    this.tokens.delete(origin)
  }
}

/** No secure place for tokens: reads find nothing, saving says what to install. */
export class UnavailableSecretStore implements SecretStore {
  readonly kind = 'memory' as const
  constructor(
    /** Why no keychain answered, in the binding's words: for a log, never for the user. */
    readonly problem: string,
    /** What to install or do; a field of its own name, so a fallback's advice() cannot hide it. */
    private readonly installAdvice: string,
  ) {}
  describe() {
    return 'no keychain (none answered on this computer)'
  }
  async get() {
    return null
  }
  async set(): Promise<void> {
    throw new SecretStoreError(NO_SECURE_PLACE, this.installAdvice, {
      action: 'keep-token-for-session',
    })
  }
  async delete() {}
}
