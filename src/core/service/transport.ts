/**
 * The transport: the one way a request reaches the Skill Execution Service. It is the only code
 * that holds the API token, and it sends the token only to the environment's own origin.
 *
 * - The HTTP client may be injected: Electron's net.fetch in the app; elsewhere the engine's own
 *   client over node:http (node-http.ts).
 * - Every attempt has one deadline, its answer's body included, and every answer is read up to a
 *   limit (limits.ts); callers may cancel with an AbortSignal.
 * - Only idempotent requests are retried (GETs, and POSTs that carry a clientRequestId); when and
 *   how long to wait is retry.ts's one decision.
 * - Every answer is parsed with the contract's schema that the caller names; a failure of any
 *   kind becomes one ApiError.
 */
import type * as z from 'zod'
import {
  checkBaseUrl,
  endpoints,
  type EndpointInfo,
  type EndpointName,
} from '../../shared/contract'
import {
  errorBody,
  networkFailure,
  parseAnswer,
  parseRetryAfter,
  receiveAnswer,
  refusal,
  type Asked,
  type ReceivedAnswer,
} from './answers'
import type { RequestBody } from './bodies'
import { ApiError } from './errors'
import { Deadline, MAX_ANSWER_BYTES } from './limits'
import { readStreamed, type StreamCall } from './streamed-answer'
import { nodeHttpFetcher, type FetchLike, type HttpAnswer, type HttpInit } from './node-http'
import { redactorFor, type Redact } from './redaction'
import { RETRYABLE_STATUS, retryDelay, type RetryPolicy } from './retry'

export type { FetchLike, HttpAnswer } from './node-http'
/** Where the client gets the token when it needs one; null when none is stored. */
export type TokenSource = () => Promise<string | null> | string | null

export interface RetryInfo {
  request: string
  /** The attempt that failed (1 = the first). */
  attempt: number
  delayMs: number
  reason: string
}

export interface ApiClientOptions {
  /** The environment's base URL, e.g. https://skills.example.com (a path prefix is kept). */
  baseUrl: string
  token?: TokenSource
  fetch?: FetchLike
  /** Time limit of one attempt, its answer's body included, in ms (default 30 s). */
  timeoutMs?: number
  /** Attempts of an idempotent request, including the first (default 4). */
  maxAttempts?: number
  /** First back-off delay in ms (default 300); doubles each time, with full jitter. */
  backoffMs?: number
  /** Longest back-off delay in ms (default 8 s). */
  maxBackoffMs?: number
  /** Longest Retry-After the client waits; a longer one is reported to the caller (default 60 s). */
  maxRetryAfterMs?: number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  random?: () => number
  onRetry?: (info: RetryInfo) => void
}

export interface CallOptions {
  signal?: AbortSignal | undefined
  /** Time limit of one attempt, its answer's body included. */
  timeoutMs?: number | undefined
}

/** One call of an endpoint of the contract's catalog. */
export interface EndpointCall<S extends z.ZodType> {
  name: EndpointName
  /** The path made by the catalog's `paths`. */
  path: string
  /** The contract's schema of the answer: the call resolves to what this parsed. */
  answer: S
  query?: Record<string, string | number | undefined>
  body?: RequestBody
  /** Overrides the catalog, for a request the caller knows may be sent twice. */
  idempotent?: boolean
}

/** How an attempt's 2xx answer is read: whole, or as a stream. */
type Receive<T> = (
  response: HttpAnswer,
  asked: Asked,
  signal: AbortSignal,
  deadline: Deadline,
) => Promise<T>

/** One attempt's request, built afresh for every attempt (a streamed body is opened again). */
export interface Built {
  url: string
  init: HttpInit
}

/** What the attempt loop knows about the attempt under way. */
interface Attempt {
  asked: Asked
  number: number
  idempotent: boolean
  signal: AbortSignal | undefined
}

export class Transport {
  readonly baseUrl: string
  readonly origin: string
  readonly fetch: FetchLike
  private readonly token: TokenSource
  /** Time limit of one attempt; fetchArtifact uses it for the wait before the bytes. */
  readonly timeoutMs: number
  private readonly retryPolicy: RetryPolicy
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  private readonly random: () => number
  private readonly onRetry: ((info: RetryInfo) => void) | undefined

  constructor(options: ApiClientOptions) {
    const check = checkBaseUrl(options.baseUrl)
    // The token is only ever sent to an https origin, or over loopback.
    if (!check.ok) throw new TypeError(check.reason)
    const url = check.url
    this.baseUrl = (url.origin + url.pathname).replace(/\/+$/, '')
    this.origin = url.origin
    this.fetch = options.fetch ?? nodeHttpFetcher()
    this.token = options.token ?? (() => null)
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.retryPolicy = {
      maxAttempts: Math.max(1, options.maxAttempts ?? 4),
      baseDelayMs: options.backoffMs ?? 300,
      maxDelayMs: options.maxBackoffMs ?? 8000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    }
    this.sleep = options.sleep ?? sleep
    this.random = options.random ?? Math.random
    this.onRetry = options.onRetry
  }

  /** Calls one endpoint and returns its answer as the schema parsed it. */
  async request<S extends z.ZodType>(
    call: EndpointCall<S>,
    options: CallOptions = {},
  ): Promise<z.infer<S>> {
    const info = endpoints[call.name]
    const url = this.baseUrl + call.path + queryString(call.query)
    const label = `${info.method} ${call.path.split('?')[0]}`
    const answer = await this.send(
      label,
      call.idempotent ?? info.idempotent,
      options,
      () => this.build(url, info, call.body),
      false,
    )
    return parseAnswer(answer, call.answer, this.asked(label))
  }

  /**
   * Calls one endpoint whose answer is read as it arrives, never held whole: the attempt's
   * deadline moves on with every piece, and the reader bounds what it keeps. A network failure
   * midway is retried like any other (a GET), with a reader made afresh.
   */
  async stream<T>(call: StreamCall<T>, options: CallOptions = {}): Promise<T> {
    const info = endpoints[call.name]
    const url = this.baseUrl + call.path
    const label = `${info.method} ${call.path.split('?')[0]}`
    return this.attempts(label, info.idempotent, options, () => this.build(url, info), {
      receive: (response, asked, signal, deadline) =>
        readStreamed(response, asked, signal, deadline, call.open()),
    })
  }

  /** Who asks, for errors: the redactor reads the stored token only when an error needs it. */
  asked(label: string): Asked {
    return {
      label,
      origin: this.origin,
      redactor: () => this.redactor(),
      tokenSent: async () => {
        try {
          return Boolean(await this.token())
        } catch {
          return false
        }
      },
    }
  }

  /** Hides the stored token (and its likes) in a service's words; see redaction.ts. */
  async redactor(): Promise<Redact> {
    try {
      return redactorFor(await this.token())
    } catch {
      // No token to be had: bearer values are still hidden.
      return redactorFor(null)
    }
  }

  /** Adds the bearer token, when there is one. Only for a request to the environment's origin. */
  async authorize(headers: Record<string, string>): Promise<void> {
    const token = await this.token()
    if (token) headers.Authorization = `Bearer ${token}`
  }

  private async build(url: string, info: EndpointInfo, body?: RequestBody): Promise<Built> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (info.auth) await this.authorize(headers)
    const init: HttpInit = { method: info.method, headers }
    if (!body) return { url, init }
    headers['Content-Type'] = 'application/json'
    if ('json' in body) {
      init.body = JSON.stringify(body.json)
      return { url, init }
    }
    init.body = body.open()
    init.duplex = 'half'
    return { url, init }
  }

  /**
   * Sends a request, retrying what may be retried, and returns the first 2xx answer (or, with
   * acceptAnyStatus, the first answer that should not be retried) with its body read. One deadline
   * covers each attempt, body included: its expiry is a timeout, retried like an unreachable
   * service. A body past its limit is an ApiError at once (a service that sent it will again).
   */
  send(
    label: string,
    idempotent: boolean,
    options: CallOptions,
    build: () => Promise<Built> | Built,
    acceptAnyStatus: boolean,
  ): Promise<ReceivedAnswer> {
    return this.attempts(label, idempotent, options, build, {
      receive: (response, asked, signal) =>
        receiveAnswer(response, asked, signal, MAX_ANSWER_BYTES),
      // A status is the answer here (a health check): its body is read as an error body.
      ...(acceptAnyStatus
        ? {
            refused: async (final: HttpAnswer, signal: AbortSignal) => {
              const { text } = await errorBody(final, signal)
              return { status: final.status, ok: false, text }
            },
          }
        : {}),
    })
  }

  /**
   * The attempt loop: each attempt built afresh, under its own deadline, its 2xx answer read by
   * `receive`; a refusal read by `refused` when the caller takes any status, thrown otherwise.
   */
  private async attempts<T>(
    label: string,
    idempotent: boolean,
    options: CallOptions,
    build: () => Promise<Built> | Built,
    reading: {
      receive: Receive<T>
      refused?: (final: HttpAnswer, signal: AbortSignal) => Promise<T>
    },
  ): Promise<T> {
    const asked = this.asked(label)
    for (let number = 1; ; number += 1) {
      const attempt: Attempt = { asked, number, idempotent, signal: options.signal }
      const { url, init } = await build()
      const deadline = new Deadline(options.timeoutMs ?? this.timeoutMs)
      const signal = options.signal
        ? AbortSignal.any([options.signal, deadline.signal])
        : deadline.signal
      const maybeHandled = init.method !== 'GET'
      try {
        const response = await this.fetch(url, { ...init, redirect: 'manual', signal })
        if (!response.ok) {
          const final = await this.judgeRefusal(response, attempt, !!reading.refused, signal)
          if (!final) continue
          return await reading.refused!(final, signal)
        }
        return await reading.receive(response, asked, signal, deadline)
      } catch (error) {
        if (error instanceof ApiError) throw error
        await this.waitAfterNoAnswer(error, attempt, maybeHandled, deadline.passed)
      } finally {
        deadline.dispose()
      }
    }
  }

  /** Waits before the next attempt when one is allowed; otherwise throws why there is none. */
  private async waitAfterNoAnswer(
    error: unknown,
    attempt: Attempt,
    maybeHandled: boolean,
    timedOut: boolean,
  ): Promise<void> {
    if (attempt.signal?.aborted) throw cancelled(attempt, error)
    const failure = networkFailure(error, attempt.asked, attempt.number, maybeHandled, timedOut)
    const timeout = failure.kind === 'timeout'
    const delay = attempt.idempotent
      ? retryDelay(
          { kind: timeout ? 'timeout' : 'network' },
          attempt.number,
          this.retryPolicy,
          this.random,
        )
      : null
    if (delay === null) throw failure
    await this.pause(attempt, delay, timeout ? 'no answer in time' : 'no answer')
  }

  /**
   * A non-2xx answer: waits and returns null when it is worth another attempt, returns the answer
   * when the caller takes any status, and throws it as an ApiError otherwise.
   */
  private async judgeRefusal(
    response: HttpAnswer,
    attempt: Attempt,
    acceptAnyStatus: boolean,
    signal: AbortSignal,
  ): Promise<HttpAnswer | null> {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
    const retryable = attempt.idempotent && RETRYABLE_STATUS.has(response.status)
    if (acceptAnyStatus && !retryable) return response
    const delay = retryable
      ? retryDelay(
          { kind: 'status', status: response.status, retryAfterMs },
          attempt.number,
          this.retryPolicy,
          this.random,
        )
      : null
    if (delay !== null) {
      await response.body?.cancel()
      await this.pause(attempt, delay, `HTTP ${response.status}`)
      return null
    }
    if (acceptAnyStatus) return response
    throw await refusal(response, attempt.asked, attempt.number, retryAfterMs, signal)
  }

  private async pause(attempt: Attempt, delayMs: number, reason: string): Promise<void> {
    this.onRetry?.({ request: attempt.asked.label, attempt: attempt.number, delayMs, reason })
    try {
      await this.sleep(delayMs, attempt.signal)
    } catch (error) {
      throw cancelled(attempt, error)
    }
  }
}

function cancelled(attempt: Attempt, cause: unknown): ApiError {
  return new ApiError({
    kind: 'aborted',
    request: attempt.asked.label,
    origin: attempt.asked.origin,
    attempts: attempt.number,
    cause,
  })
}

/** `?a=1&b=2` of the values that are set, or '' when none is. */
function queryString(query: Record<string, string | number | undefined> | undefined): string {
  if (!query) return ''
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(key, String(value))
  }
  const qs = search.toString()
  return qs ? `?${qs}` : ''
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
