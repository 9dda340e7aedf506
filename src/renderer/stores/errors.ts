import type { BridgeErrorInfo } from '../../shared/bridge'
import { BridgeError } from '../../shared/bridge/errors'

/** Any thrown value as an error the UI can show (what happened, what to do next). */
export function errorInfo(error: unknown): BridgeErrorInfo {
  if (error instanceof BridgeError) return error.toInfo()
  return {
    code: 'internal',
    message: 'Something went wrong in the window.',
    nextStep: 'Try again. If it keeps happening, reload the window.',
  }
}
