/**
 * How the Bridge says an error: one table from the error's category to the kind of error the
 * window shows (and the buttons it offers). The engine's message and next step cross as they are;
 * nothing is matched by its text. Anything that is not a UserFacingError is a bug.
 */
import { BridgeError, type BridgeErrorCode, type BridgeErrorInfo } from '../../shared/bridge'
import { UserFacingError, type ErrorCategory } from '../errors'
import { EngineError } from '../errors'

export const BRIDGE_CODE_BY_CATEGORY: Record<ErrorCategory, BridgeErrorCode> = {
  'bad-input': 'invalid-arguments',
  'not-found': 'not-found',
  'not-signed-in': 'unauthorized',
  'not-allowed': 'not-allowed',
  refused: 'refused',
  unavailable: 'unreachable',
  conflict: 'conflict',
  'over-limit': 'over-limit',
  cancelled: 'cancelled',
  internal: 'internal',
}

/** Any error thrown by a verb, as the error the window shows. */
export function describeError(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error
  if (error instanceof UserFacingError) {
    const info: BridgeErrorInfo = {
      code: BRIDGE_CODE_BY_CATEGORY[error.category],
      message: error.message,
      nextStep: error.nextStep,
    }
    if (error instanceof EngineError && error.fields) info.fields = error.fields
    if (error.action) info.action = error.action
    return new BridgeError(info)
  }
  return new BridgeError({
    code: 'internal',
    message: `Something went wrong inside Skill Runner: ${error instanceof Error ? error.message : String(error)}`,
    nextStep:
      'Try again. If it happens again, restart Skill Runner and report what you were doing.',
  })
}
