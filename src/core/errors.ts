/**
 * Errors a user may see share one base: a code, a message that says what happened, and the next
 * step. Every front door checks the base once (UserFacingError) to show an error as is;
 * anything else is a bug and is reported as one.
 *
 * - EngineError: things a user did or can fix (an unknown environment, a refused spending cap);
 * - ApiError (api/errors.ts): everything that goes wrong talking to the service;
 * - SecretStoreError (secrets/store.ts): a token that cannot be kept.
 */

export abstract class UserFacingError extends Error {
  /** A stable, machine-readable kind of failure (e.g. 'refused', 'http', 'keychain'). */
  abstract readonly code: string
  /** What to do next, in words a non-technical user understands. */
  readonly nextStep: string

  constructor(message: string, nextStep: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.nextStep = nextStep
  }
}

/** "What happened. What to do." for any error. */
export function describeUserError(error: unknown): string {
  if (error instanceof UserFacingError) return `${error.message} ${error.nextStep}`.trim()
  return error instanceof Error ? error.message : String(error)
}

export type EngineErrorCode =
  'invalid-arguments' | 'not-found' | 'conflict' | 'refused' | 'unavailable' | 'internal'

export class EngineError extends UserFacingError {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    nextStep: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message, nextStep)
    this.name = 'EngineError'
  }
}
