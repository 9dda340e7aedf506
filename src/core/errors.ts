/**
 * Errors the engine raises for things a user did or can fix (an unknown environment, a name in
 * use, a refused spending cap). Each says what happened and what to do next. Errors of the
 * service come as ApiError (src/core/api/errors.ts).
 */

export type EngineErrorCode =
  'invalid-arguments' | 'not-found' | 'conflict' | 'refused' | 'unavailable' | 'internal'

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly nextStep: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message)
    this.name = 'EngineError'
  }
}
