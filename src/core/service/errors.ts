/**
 * One error type for everything that can go wrong talking to the service. It keeps the HTTP
 * status and the server's own `{ error }` message, and says in plain words what happened and what
 * to do next, so every front door (UI, CLI) can show it as is. What only an engineer reads (the
 * request's method and path, a system error code) stays in its fields, for a log, and out of the
 * message.
 */

import { UserFacingError, type ErrorAction, type ErrorCategory } from '../errors'
import { formatBytes } from '../../shared/format/bytes'
import { redactBearer, type Redact } from './redaction'

export type ApiErrorKind =
  /** The service answered with a non-2xx status. */
  | 'http'
  /** No answer: DNS, refused connection, reset, TLS. */
  | 'unreachable'
  /** No answer within the time limit. */
  | 'timeout'
  /** The caller cancelled the request. */
  | 'aborted'
  /** The answer did not have the shape the interface promises. */
  | 'contract'
  /** The answer went on past the client's limit (limits.ts); it was not read further. */
  | 'too-large'

export interface ApiErrorInit {
  kind: ApiErrorKind
  /** What was asked, e.g. "GET /svc/v1/users/me/runs": for a log, never in the message. */
  request: string
  /** The service's origin, e.g. https://skills.example.com. */
  origin: string
  status?: number
  /** The `error` text of the answer's body, when there was one. */
  serverMessage?: string
  /** Detail of a network failure or of a contract problem. */
  detail?: string
  /** Milliseconds the service asked us to wait (Retry-After), when it said so. */
  retryAfterMs?: number
  /** Requests made, including retries. */
  attempts?: number
  /** Whether the request may have reached the service (a POST whose answer was lost). */
  maybeHandled?: boolean
  /** The limit an answer (or an error body) went past, in bytes; reading stopped there. */
  limitBytes?: number
  /** A 401 to a request that carried no token: none was given, so none was refused. */
  noToken?: boolean
  /**
   * Hides secrets in the service's words (serverMessage, detail) before they reach the message:
   * the transport's redactor knows the stored token. Bearer values are hidden without it.
   */
  redact?: Redact
  cause?: unknown
}

export class ApiError extends UserFacingError {
  readonly kind: ApiErrorKind
  readonly request: string
  readonly origin: string
  /** The HTTP status, or 0 when there was no answer. */
  readonly status: number
  readonly serverMessage: string
  readonly detail: string
  readonly retryAfterMs: number | undefined
  readonly attempts: number
  readonly maybeHandled: boolean
  /** A 401 to a request without a token (see ApiErrorInit.noToken). */
  readonly noToken: boolean
  constructor(given: ApiErrorInit) {
    const init = withoutSecrets(given)
    const { message, nextStep, action } = explain(init)
    super(message, nextStep, { cause: init.cause, action })
    this.name = 'ApiError'
    this.kind = init.kind
    this.request = init.request
    this.origin = init.origin
    this.status = init.status ?? 0
    this.serverMessage = init.serverMessage ?? ''
    this.detail = init.detail ?? ''
    this.retryAfterMs = init.retryAfterMs
    this.attempts = init.attempts ?? 1
    this.maybeHandled = init.maybeHandled ?? false
    this.noToken = init.noToken ?? false
  }

  get category(): ErrorCategory {
    return categoryOf(this.kind, this.status)
  }

  /** The kind of failure, with the status for a refusal: 'http-404', 'unreachable'... */
  get code(): string {
    return this.kind === 'http' ? `http-${this.status}` : this.kind
  }

  /** True for a 401: the token is missing, wrong or expired. */
  get isUnauthorized(): boolean {
    return this.kind === 'http' && this.status === 401
  }

  /** True when the service could not be reached at all (CLI exit code 3). */
  get isUnreachable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout'
  }
}

/** The init with the service's words passed through the redactor. */
function withoutSecrets(init: ApiErrorInit): ApiErrorInit {
  const redact = init.redact ?? redactBearer
  const { redact: _, ...rest } = init
  return {
    ...rest,
    ...(init.serverMessage !== undefined ? { serverMessage: redact(init.serverMessage) } : {}),
    ...(init.detail !== undefined ? { detail: redact(init.detail) } : {}),
  }
}

/** Said when reading stopped at a limit: the service's answer went on past it. */
function tooLargeWords(limitBytes: number | undefined): string {
  return `The service sent an answer larger than ${limitWords(limitBytes)}; Skill Runner stopped reading it.`
}

function limitWords(limitBytes: number | undefined): string {
  return limitBytes ? formatBytes(limitBytes) : 'Skill Runner reads'
}

/**
 * The server's words, when it gave some. A body that is itself JSON without an `error` text is
 * data, not words, and is left to the log.
 */
function serverWords(serverMessage: string | undefined): string {
  if (!serverMessage || /^[[{]/.test(serverMessage.trim())) return ''
  return ` It said: “${serverMessage}”`
}

/**
 * Why the network failed, when it is said in words ("the connection was refused"). A bare system
 * code (ETIMEDOUT, EHOSTUNREACH) says nothing to a user and is left to the log.
 */
function networkReason(detail: string | undefined): string {
  if (!detail || /^[A-Z][A-Z0-9_]*$/.test(detail)) return ''
  return ` (${detail})`
}

interface Explained {
  message: string
  nextStep: string
  action?: ErrorAction
}

function explain(init: ApiErrorInit): Explained {
  const explained = init.kind === 'http' ? explainStatus(init) : explainNoAnswer(init)
  // A refusal whose body went past the limit: its status still says what happened.
  if (init.kind !== 'http' || init.limitBytes === undefined) return explained
  return { ...explained, message: `${explained.message} ${tooLargeWords(init.limitBytes)}` }
}

/** Every kind but a refusal: no answer, a cancel, or an answer that could not be read. */
function explainNoAnswer(init: ApiErrorInit): Explained {
  const where = init.origin
  switch (init.kind) {
    case 'unreachable':
      return {
        message: `Could not reach the service at ${where}${networkReason(init.detail)}.`,
        nextStep: 'Check your internet connection and the environment’s address, then try again.',
      }
    case 'timeout':
      return {
        message: `The service at ${where} did not answer in time.`,
        nextStep: 'Try again in a moment. If it keeps happening, the service may be down.',
      }
    case 'aborted':
      return {
        message: 'The request was cancelled.',
        nextStep: 'Start it again when you are ready.',
      }
    case 'contract':
      return {
        message: `The service at ${where} sent an answer this app cannot read: ${init.detail ?? 'unknown shape'}.`,
        nextStep:
          'The service may run a newer interface version. Update Skill Runner, or report it to the service’s operator.',
      }
    case 'too-large':
      // A part past its own bound (one output of a run) will be as large at every try.
      if (init.detail) {
        return {
          message: `The service sent ${init.detail} larger than ${limitWords(init.limitBytes)}; Skill Runner stopped reading it.`,
          nextStep:
            'Skill Runner cannot read a part this large. Report it to the service’s operator, who can send such content as a file to download.',
        }
      }
      return {
        message: tooLargeWords(init.limitBytes),
        nextStep:
          'Try again in a few minutes. If it keeps happening, report it to the service’s operator.',
      }
    case 'http':
      return explainStatus(init)
  }
}

/** A refusal: what its status means, with the service's own words. */
function explainStatus(init: ApiErrorInit): Explained {
  const server = serverWords(init.serverMessage)
  const where = init.origin
  const status = init.status ?? 0
  // The service's words on a 401 are for programmers ("send it as Authorization: …"): a log keeps them.
  if (status === 401 && init.noToken) {
    return {
      message: `The service at ${where} asks for an API token, and this environment has none yet.`,
      nextStep: 'Set a token for this environment.',
      action: 'set-token',
    }
  }
  if (status === 401) {
    return {
      message: `The service at ${where} did not accept the API token.`,
      nextStep: 'Set a valid token for this environment.',
      action: 'set-token',
    }
  }
  if (status === 403) {
    return {
      message: `The service refused access: this belongs to another account.${server}`,
      nextStep: 'Check that you are using the right environment and token.',
    }
  }
  if (status === 404) {
    return {
      message: `The service does not know what was asked for.${server}`,
      nextStep: 'Check the id: it may be mistyped or belong to another environment.',
    }
  }
  if (status === 409) {
    return {
      message: `The service refused the request because it conflicts with its current state.${server}`,
      nextStep: 'Refresh, check the details, and try again.',
    }
  }
  if (status === 413) {
    return {
      message: `The request was too large for the service.${server}`,
      nextStep: 'Send a smaller file or fewer rows at a time.',
    }
  }
  if (status === 429) {
    const wait = init.retryAfterMs ? ` Wait about ${Math.ceil(init.retryAfterMs / 1000)} s.` : ''
    return {
      message: `The service is busy and asked to slow down.${server}`,
      nextStep: `Try again later.${wait}`,
    }
  }
  if (status >= 500) {
    return {
      message: `The service at ${where} had a problem (HTTP ${status}).${server}`,
      nextStep:
        'Try again in a few minutes. If it keeps happening, contact the service’s operator.',
    }
  }
  return {
    message: `The service refused the request (HTTP ${status}).${server}`,
    nextStep: 'Correct what the message names and try again.',
  }
}

/** The category of a failure talking to the service (see src/shared/errors.ts). */
export function categoryOf(kind: ApiErrorKind, status: number): ErrorCategory {
  if (kind === 'aborted') return 'cancelled'
  if (kind !== 'http') return 'unavailable'
  if (status === 401) return 'not-signed-in'
  if (status === 403) return 'not-allowed'
  if (status === 404) return 'not-found'
  if (status === 409) return 'conflict'
  if (status === 413) return 'over-limit'
  if (status === 429 || status >= 500) return 'unavailable'
  return 'refused'
}
