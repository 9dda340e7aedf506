/**
 * How a Bridge call answers: `{ ok: true, value }` or `{ ok: false, error }`. Errors cross the
 * Bridge as plain data (Electron IPC would otherwise drop everything but the message), and every
 * error says what happened and what to do next.
 */
import { UserFacingError, type ErrorAction, type ErrorCategory } from '../errors'

export type BridgeErrorCode =
  /** The arguments were refused (a form field is wrong). */
  | 'invalid-arguments'
  /** The caller is not the app's own window / page. */
  | 'forbidden'
  /** No such verb, environment or run. */
  | 'not-found'
  /** The action conflicts with the current state (e.g. a name already used). */
  | 'conflict'
  /** The service could not be reached. */
  | 'unreachable'
  /** The service refused the token, or there is none. */
  | 'unauthorized'
  /** Signed in, but this account may not do it. */
  | 'not-allowed'
  /** Refused, and nothing was done (by the service or by a rule). */
  | 'refused'
  /** Over a limit: the spending cap, a size. */
  | 'over-limit'
  /** Stopped, or not confirmed. */
  | 'cancelled'
  /** The service answered with an error. */
  | 'service'
  /** Anything else: a bug or an unexpected condition. */
  | 'internal'

export interface BridgeErrorInfo {
  code: BridgeErrorCode
  /** What happened, in words a non-technical user understands. */
  message: string
  /** What to do next. */
  nextStep: string
  /** Form fields at fault, for `invalid-arguments` (field -> message). */
  fields?: Record<string, string>
  /** What the window can offer to do about it (a button), when anything. */
  action?: ErrorAction
}

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeErrorInfo }

/** The category each kind of Bridge error stands for (the inverse of core's table). */
const CATEGORY_OF_CODE: Record<BridgeErrorCode, ErrorCategory> = {
  'invalid-arguments': 'bad-input',
  forbidden: 'not-allowed',
  'not-found': 'not-found',
  conflict: 'conflict',
  unreachable: 'unavailable',
  unauthorized: 'not-signed-in',
  'not-allowed': 'not-allowed',
  refused: 'refused',
  'over-limit': 'over-limit',
  cancelled: 'cancelled',
  service: 'refused',
  internal: 'internal',
}

/**
 * A user error as it crosses the Bridge: its kind for the window, message, next step, the form
 * fields at fault and the action on offer. Thrown by handlers and by the UI's Bridge client.
 */
export class BridgeError extends UserFacingError {
  readonly code: BridgeErrorCode
  readonly fields: Record<string, string> | undefined

  constructor(info: BridgeErrorInfo) {
    super(info.message, info.nextStep, { action: info.action })
    this.name = 'BridgeError'
    this.code = info.code
    this.fields = info.fields
  }

  get category(): ErrorCategory {
    return CATEGORY_OF_CODE[this.code]
  }

  toInfo(): BridgeErrorInfo {
    const info: BridgeErrorInfo = {
      code: this.code,
      message: this.message,
      nextStep: this.nextStep,
    }
    if (this.fields) info.fields = this.fields
    if (this.action) info.action = this.action
    return info
  }
}

export function isBridgeErrorInfo(value: unknown): value is BridgeErrorInfo {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.code === 'string' && typeof v.message === 'string' && typeof v.nextStep === 'string'
  )
}

/** An error answer with the engine's message but a missing or odd part, made whole. */
function knownWords(value: unknown): BridgeErrorInfo | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Record<string, unknown>
  if (typeof v.message !== 'string' || !v.message) return null
  const code =
    typeof v.code === 'string' && Object.hasOwn(CATEGORY_OF_CODE, v.code) ? v.code : 'internal'
  return {
    code: code as BridgeErrorCode,
    message: v.message,
    nextStep: typeof v.nextStep === 'string' ? v.nextStep : '',
  }
}

/** Reads an envelope that came over a transport; anything malformed becomes an error. */
export function unwrapResult<T>(envelope: unknown): T {
  if (typeof envelope === 'object' && envelope !== null && 'ok' in envelope) {
    const e = envelope as { ok: unknown; value?: unknown; error?: unknown }
    if (e.ok === true) return e.value as T
    if (e.ok === false && isBridgeErrorInfo(e.error)) throw new BridgeError(e.error)
    // The engine's own words are shown even when part of its answer is missing.
    const known = e.ok === false ? knownWords(e.error) : null
    if (known) throw new BridgeError(known)
  }
  throw new BridgeError({
    code: 'internal',
    message: 'The app’s engine sent an answer the window could not read.',
    nextStep: 'Restart Skill Runner. If it happens again, report it with what you were doing.',
  })
}

export const forbiddenError: BridgeErrorInfo = {
  code: 'forbidden',
  message: 'This request did not come from the Skill Runner window, so it was refused.',
  nextStep: 'Use the Skill Runner window itself.',
}
