/**
 * Reading what came back: an answer's JSON through the contract's schema, a refusal's error body,
 * a Retry-After header, a network failure. Each ends as a value or as one ApiError.
 */
import type * as z from 'zod'
import { ContractError, parseWith } from '../../shared/contract'
import { ApiError } from './errors'
import { MAX_ERROR_BODY_BYTES, readAtMost } from './limits'
import type { HttpAnswer } from './node-http'
import type { Redact } from './redaction'
import { defined } from '../../shared/defined'

/** Who asked for what, to name it in an error. */
export interface Asked {
  /** E.g. "GET /svc/v1/users/me/runs". */
  label: string
  origin: string
  /** The redactor for the service's words in an error (it reads the stored token). */
  redactor: () => Promise<Redact>
  /** Whether the request carried a token; absent where the caller cannot tell. */
  tokenSent?: () => Promise<boolean>
}

/** An answer whose body was read whole: within the limit, before the deadline. */
export interface ReceivedAnswer {
  status: number
  ok: boolean
  text: string
}

/**
 * The answer's body, read up to `limit` bytes and no longer than `signal` allows. Past the limit
 * it is an ApiError of kind 'too-large'; a body cut or cancelled rejects as the network did.
 */
export async function receiveAnswer(
  response: HttpAnswer,
  asked: Asked,
  signal: AbortSignal,
  limit: number,
): Promise<ReceivedAnswer> {
  const { bytes, complete } = await readAtMost(response.body, limit, signal)
  if (!complete) {
    throw new ApiError({
      kind: 'too-large',
      request: asked.label,
      origin: asked.origin,
      status: response.status,
      limitBytes: limit,
    })
  }
  return { status: response.status, ok: response.ok, text: bytes.toString('utf8') }
}

/**
 * The answer's body parsed with `schema`, so its type is what was parsed, never what a caller
 * hoped for. An empty body reads as `{}`; a body that is not JSON, or that lacks what the schema
 * requires, is an ApiError of kind 'contract' naming the fields at fault.
 */
export async function parseAnswer<S extends z.ZodType>(
  answer: ReceivedAnswer,
  schema: S,
  asked: Asked,
): Promise<z.infer<S>> {
  let json: unknown
  try {
    json = answer.text === '' ? {} : JSON.parse(answer.text)
  } catch {
    throw await contractFault(asked, answer.status, NOT_JSON)
  }
  try {
    return parseWith(schema, json, `an answer to ${asked.label}`)
  } catch (error) {
    if (!(error instanceof ContractError)) throw error
    throw await schemaFault(asked, answer.status, error)
  }
}

/** Said of an answer that is not JSON, whole or cut short. */
export const NOT_JSON = 'the answer is not JSON'

/** The ApiError of an answer this app cannot read, with the service's words redacted. */
export async function contractFault(
  asked: Asked,
  status: number,
  detail: string,
  cause?: unknown,
): Promise<ApiError> {
  return new ApiError({
    kind: 'contract',
    request: asked.label,
    origin: asked.origin,
    status,
    detail,
    redact: await asked.redactor(),
    ...defined({ cause }),
  })
}

/** The ApiError of an answer the schema refused, naming the fields at fault. */
export async function schemaFault(
  asked: Asked,
  status: number,
  error: ContractError,
): Promise<ApiError> {
  // The issues may quote the service's values: the cause kept for a log is redacted too.
  const redact = await asked.redactor()
  const issues = error.issues.map(redact)
  return contractFault(
    asked,
    status,
    issues.join('; '),
    new ContractError(`an answer to ${asked.label}`, issues),
  )
}

/**
 * An error body's text: at most MAX_ERROR_BODY_BYTES of it, and whatever came before the deadline
 * or a cut (a refusal is a refusal, whatever its body). `cut` says the body went on past the limit.
 */
export async function errorBody(
  response: HttpAnswer,
  signal?: AbortSignal,
): Promise<{ text: string; cut: boolean }> {
  try {
    const { bytes, complete } = await readAtMost(response.body, MAX_ERROR_BODY_BYTES, signal)
    return { text: bytes.toString('utf8'), cut: !complete }
  } catch {
    return { text: '', cut: false }
  }
}

/** The `error` of an error body, or a short piece of a non-JSON body. */
export function errorText(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error
      if (typeof error === 'string') return error
    }
  } catch {
    // not JSON
  }
  const trimmed = text.trim().replace(/\s+/g, ' ')
  return trimmed.length > 200 ? `${trimmed.slice(0, 197)}...` : trimmed
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** A request that got no answer: timed out, or the network failed (refused, reset, DNS...). */
export function networkFailure(
  error: unknown,
  asked: Pick<Asked, 'label' | 'origin'>,
  attempt: number,
  maybeHandled: boolean,
  timedOut = false,
): ApiError {
  const timeout = timedOut || (error instanceof Error && error.name === 'TimeoutError')
  return new ApiError({
    kind: timeout ? 'timeout' : 'unreachable',
    request: asked.label,
    origin: asked.origin,
    detail: timeout ? '' : networkDetail(error),
    attempts: attempt,
    maybeHandled,
    cause: error,
  })
}

function networkDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  // fetch wraps the system's error as its cause; node:http gives the system's error itself.
  const cause = (error as { cause?: unknown }).cause
  const system = cause && typeof cause === 'object' ? cause : error
  const code = (system as { code?: unknown }).code
  if (code === 'ECONNREFUSED') return 'the connection was refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name was not found'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was cut'
  if (typeof code === 'string') return code
  if (system instanceof Error) return system.message
  return error.message
}

/**
 * The ApiError for a final non-2xx answer, carrying the server's own message. A redirect is one
 * too: the client never follows one with the token (fetchArtifact follows them by hand).
 */
export async function refusal(
  response: HttpAnswer,
  asked: Asked,
  attempt: number,
  retryAfterMs: number | undefined,
  signal: AbortSignal,
): Promise<ApiError> {
  const body = await errorBody(response, signal)
  let serverMessage = errorText(body.text)
  if (response.status >= 300 && response.status < 400) {
    serverMessage = `it redirected to ${response.headers.get('location') ?? 'another address'}, which this app does not follow with your token`
  }
  return new ApiError({
    kind: 'http',
    request: asked.label,
    origin: asked.origin,
    status: response.status,
    serverMessage,
    attempts: attempt,
    redact: await asked.redactor(),
    ...(response.status === 401 && asked.tokenSent && !(await asked.tokenSent())
      ? { noToken: true }
      : {}),
    ...(body.cut ? { limitBytes: MAX_ERROR_BODY_BYTES } : {}),
    ...defined({ retryAfterMs }),
  })
}
