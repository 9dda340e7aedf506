/**
 * The client for every endpoint of the Skill Execution Service, typed by the contract in
 * src/shared/contract. It is the only code that ever holds the API token, and it sends the token
 * only to the environment's own origin.
 *
 * - fetch is injected: Node's fetch in the CLI and tests, Electron's net.fetch in the app.
 * - Every attempt has a time limit; callers may cancel with an AbortSignal.
 * - Only idempotent requests are retried (GETs, and POSTs that carry a clientRequestId), with
 *   exponential back-off, full jitter and the service's Retry-After, a bounded number of times.
 * - Every answer is parsed with the contract's schemas; failures become one ApiError.
 */
import {
  API_PREFIX,
  ContractError,
  checkBaseUrl,
  PAGE_LIMITS,
  QUERY,
  endpoints,
  parseWith,
  paths,
  type CreatorListingList,
  type EndpointName,
  type ExecuteBody,
  type ExecutionResult,
  type InputAsset,
  type MarketListing,
  type OfficialTemplateSchema,
  type PrivateTemplate,
  type ReviewRequest,
  type RunDetail,
  type RunList,
  type RunRowsAcceptance,
  type RunRowsBody,
  type RunSummary,
  type CreatorListing,
  type WorkbookValidation,
} from '../../shared/contract'
import { ApiError } from './errors'
import { nodeHttpFetch } from './node-http'
import { paginate } from './paginate'
import { RETRYABLE_STATUS, retryDelay, type RetryPolicy } from './retry'

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>
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
  /** Time limit of one attempt, in ms (default 30 s). */
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
  timeoutMs?: number | undefined
}

/** A JSON body written piece by piece, for bodies too large to build as one string. */
export interface StreamedBody {
  /** Makes a fresh stream of the body's bytes (called again for a retry). */
  open(): ReadableStream<Uint8Array>
}

type Body = { json: unknown } | StreamedBody

export interface RunsQuery {
  status?: string | undefined
  pageSize?: number | undefined
  pageToken?: string | undefined
  orderBy?: string | undefined
}

export interface ListingsQuery {
  search?: string | undefined
  pageSize?: number | undefined
  pageToken?: string | undefined
}

export interface UploadRequest {
  filename: string
  contentType: string
  /** The file's bytes: base64 text, or a stream of base64 text chunks (see base64JsonBody). */
  content: string | StreamedBody
}

export interface ValidateWorkbookRequest {
  clientRequestId: string
  confirm: boolean
  filename: string
  listingVersionId: string
  /** The workbook's bytes; sent as the interface's array of integers. */
  content: Uint8Array
}

export interface HealthAnswer {
  status: number
  ok: boolean
  body: unknown
}

interface Built {
  url: string
  init: RequestInit
  /** The fetch for this request when it is not the client's usual one. */
  fetch?: FetchLike
}

const MAX_REDIRECTS = 5

export class ApiClient {
  readonly baseUrl: string
  readonly origin: string
  private readonly fetchImpl: FetchLike
  /** For streamed request bodies: node:http unless a fetch was given (see node-http.ts). */
  private readonly streamFetch: FetchLike
  private readonly token: TokenSource
  private readonly timeoutMs: number
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
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init))
    this.streamFetch = options.fetch ?? nodeHttpFetch
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

  // ---- System ---------------------------------------------------------------------------

  /** GET /healthz: reachability only. Never throws for an HTTP status; only when unreachable. */
  healthz(options?: CallOptions): Promise<HealthAnswer> {
    return this.probe('healthz', paths.healthz(), options)
  }

  /** GET /version. Never throws for an HTTP status; only when unreachable. */
  version(options?: CallOptions): Promise<HealthAnswer> {
    return this.probe('version', paths.version(), options)
  }

  /** GET /svc/v1/models: the authenticated call that proves the token works. */
  models(options?: CallOptions): Promise<unknown> {
    return this.request('models', paths.models(), {}, options)
  }

  // ---- Official templates -----------------------------------------------------------------

  templateSchema(templateId: string, options?: CallOptions): Promise<OfficialTemplateSchema> {
    return this.request('templateSchema', paths.templateSchema(templateId), {}, options)
  }

  /** POST runRows. Idempotent through body.clientRequestId, so it is retried. */
  runRows(
    templateId: string,
    body: RunRowsBody,
    options?: CallOptions,
  ): Promise<RunRowsAcceptance> {
    return this.request('runRows', paths.runRows(templateId), { body: { json: body } }, options)
  }

  // ---- Market listings ------------------------------------------------------------------

  /** GET marketListings/{id}: the buyer's view of a published listing (DESIGN.md). */
  marketListing(listingId: string, options?: CallOptions): Promise<MarketListing> {
    return this.request('marketListing', paths.marketListing(listingId), {}, options)
  }

  /** POST :execute. Spends money: call only after the user confirmed (body.confirm). */
  execute(listingId: string, body: ExecuteBody, options?: CallOptions): Promise<ExecutionResult> {
    return this.request('execute', paths.execute(listingId), { body: { json: body } }, options)
  }

  /** POST :validateWorkbook, the bytes streamed as the interface's integer array. */
  validateWorkbook(
    listingId: string,
    request: ValidateWorkbookRequest,
    options?: CallOptions,
  ): Promise<WorkbookValidation> {
    const { content, ...rest } = request
    return this.request(
      'validateWorkbook',
      paths.validateWorkbook(listingId),
      { body: byteArrayJsonBody(rest, 'content', content) },
      options,
    )
  }

  // ---- Input assets ---------------------------------------------------------------------

  /**
   * POST inputAssets:upload. Not idempotent (the interface has no clientRequestId here), so it
   * is retried only when `retry` is set: a duplicate asset costs nothing, the uploader dedupes.
   */
  upload(request: UploadRequest, options?: CallOptions & { retry?: boolean }): Promise<InputAsset> {
    const body: Body = typeof request.content === 'string' ? { json: request } : request.content
    return this.request(
      'upload',
      paths.upload(),
      { body, ...(options?.retry ? { idempotent: true } : {}) },
      options,
    )
  }

  // ---- Runs -----------------------------------------------------------------------------

  listRuns(query: RunsQuery = {}, options?: CallOptions): Promise<RunList> {
    const q = QUERY.runs
    return this.request(
      'runs',
      paths.runs(),
      {
        query: {
          [q.status]: query.status,
          [q.pageSize]: clampPageSize(query.pageSize, PAGE_LIMITS.runs.max),
          [q.pageToken]: query.pageToken,
          [q.orderBy]: query.orderBy,
        },
      },
      options,
    )
  }

  /** Every run (newest first) up to `limit`, following page tokens. */
  async listAllRuns(
    query: Omit<RunsQuery, 'pageToken' | 'pageSize'> & { limit?: number | undefined } = {},
    options?: CallOptions,
  ): Promise<{ items: RunSummary[]; totalCount: number }> {
    const { limit, ...filter } = query
    return paginate<RunSummary>(
      ({ pageToken, pageSize }) => this.listRuns({ ...filter, pageSize, pageToken }, options),
      { limit, maxPageSize: PAGE_LIMITS.runs.max },
    )
  }

  run(runId: string, options?: CallOptions): Promise<RunDetail> {
    return this.request('run', paths.run(runId), {}, options)
  }

  // ---- Creators and private templates ---------------------------------------------------

  listCreatorListings(
    query: ListingsQuery = {},
    options?: CallOptions,
  ): Promise<CreatorListingList> {
    const q = QUERY.listings
    return this.request(
      'creatorListings',
      paths.creatorListings(),
      {
        query: {
          [q.search]: query.search,
          [q.pageSize]: clampPageSize(query.pageSize, PAGE_LIMITS.listings.max),
          [q.pageToken]: query.pageToken,
        },
      },
      options,
    )
  }

  /** Every listing of the creator up to `limit`, following page tokens. */
  async listAllCreatorListings(
    query: { search?: string | undefined; limit?: number | undefined } = {},
    options?: CallOptions,
  ): Promise<CreatorListing[]> {
    const all = await paginate<CreatorListing>(
      ({ pageToken, pageSize }) =>
        this.listCreatorListings({ search: query.search, pageSize, pageToken }, options),
      { limit: query.limit, maxPageSize: PAGE_LIMITS.listings.max },
    )
    return all.items
  }

  privateTemplate(templateId: string, options?: CallOptions): Promise<PrivateTemplate> {
    return this.request('privateTemplate', paths.privateTemplate(templateId), {}, options)
  }

  reviewRequest(id: string, options?: CallOptions): Promise<ReviewRequest> {
    return this.request('reviewRequest', paths.reviewRequest(id), {}, options)
  }

  // ---- Artifacts ------------------------------------------------------------------------

  /**
   * Fetches an artifact's accessUrl and returns the streaming answer (2xx only). The token is
   * attached only while the URL is on the environment's origin; redirects are followed by hand
   * so that once a redirect leaves the origin, no later hop gets the token either.
   */
  async fetchArtifact(
    accessUrl: string,
    init: { headers?: Record<string, string>; signal?: AbortSignal; method?: 'GET' | 'HEAD' } = {},
  ): Promise<Response> {
    let url = new URL(accessUrl, this.baseUrl + '/')
    let trusted = true
    const label = () => `${init.method ?? 'GET'} ${url.origin}${url.pathname}`
    for (let hop = 0; ; hop += 1) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new ApiError({
          kind: 'http',
          request: label(),
          origin: url.origin,
          status: 400,
          serverMessage: `unsupported address ${url.protocol}`,
        })
      }
      trusted = trusted && url.origin === this.origin
      const headers: Record<string, string> = { ...init.headers }
      if (trusted) {
        const token = await this.token()
        if (token) headers.Authorization = `Bearer ${token}`
      }
      let response: Response
      try {
        response = await this.fetchImpl(url.href, {
          method: init.method ?? 'GET',
          headers,
          redirect: 'manual',
          ...(init.signal ? { signal: init.signal } : {}),
        })
      } catch (error) {
        throw this.networkError(error, label(), 1, false)
      }
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        await response.body?.cancel()
        if (hop >= MAX_REDIRECTS) {
          throw new ApiError({
            kind: 'http',
            request: label(),
            origin: url.origin,
            status: response.status,
            serverMessage: 'too many redirects',
          })
        }
        url = new URL(response.headers.get('location')!, url)
        continue
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '')
        throw new ApiError({
          kind: 'http',
          request: label(),
          origin: url.origin,
          status: response.status,
          serverMessage: errorText(text),
        })
      }
      return response
    }
  }

  // ---- Plumbing -------------------------------------------------------------------------

  private async probe(
    name: 'healthz' | 'version',
    path: string,
    options?: CallOptions,
  ): Promise<HealthAnswer> {
    const label = `GET ${path}`
    const response = await this.attemptLoop(
      label,
      endpoints[name].idempotent,
      options ?? {},
      () => ({
        url: this.baseUrl + path,
        init: { method: 'GET', headers: { Accept: 'application/json, text/plain' } },
      }),
      /* acceptAnyStatus */ true,
    )
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // plain text is a fine answer for a health check
    }
    return { status: response.status, ok: response.ok, body }
  }

  private async request<T>(
    name: EndpointName,
    path: string,
    parts: {
      query?: Record<string, string | number | undefined>
      body?: Body
      idempotent?: boolean
    },
    options: CallOptions = {},
  ): Promise<T> {
    const info = endpoints[name]
    let url = this.baseUrl + path
    if (parts.query) {
      const search = new URLSearchParams()
      for (const [key, value] of Object.entries(parts.query)) {
        if (value !== undefined && value !== '') search.set(key, String(value))
      }
      const qs = search.toString()
      if (qs) url += `?${qs}`
    }
    const label = `${info.method} ${API_PREFIX}${path.slice(API_PREFIX.length).split('?')[0]}`
    const response = await this.attemptLoop(
      label,
      parts.idempotent ?? info.idempotent,
      options,
      async () => {
        const headers: Record<string, string> = { Accept: 'application/json' }
        if (info.auth) {
          const token = await this.token()
          if (token) headers.Authorization = `Bearer ${token}`
        }
        const init: RequestInit & { duplex?: 'half' } = { method: info.method, headers }
        if (parts.body) {
          headers['Content-Type'] = 'application/json'
          if ('json' in parts.body) init.body = JSON.stringify(parts.body.json)
          else {
            init.body = parts.body.open()
            init.duplex = 'half'
            return { url, init, fetch: this.streamFetch }
          }
        }
        return { url, init }
      },
      false,
    )
    const text = await response.text()
    let json: unknown
    try {
      json = text === '' ? {} : JSON.parse(text)
    } catch {
      throw new ApiError({
        kind: 'contract',
        request: label,
        origin: this.origin,
        status: response.status,
        detail: 'the answer is not JSON',
      })
    }
    if (!info.response) return json as T
    try {
      return parseWith(info.response, json, `an answer to ${label}`) as T
    } catch (error) {
      if (error instanceof ContractError) {
        throw new ApiError({
          kind: 'contract',
          request: label,
          origin: this.origin,
          status: response.status,
          detail: error.issues.join('; '),
          cause: error,
        })
      }
      throw error
    }
  }

  /**
   * Sends a request, retrying what may be retried, and returns the first 2xx answer (or, with
   * acceptAnyStatus, the first answer that should not be retried).
   */
  private async attemptLoop(
    label: string,
    idempotent: boolean,
    options: CallOptions,
    build: () => Promise<Built> | Built,
    acceptAnyStatus: boolean,
  ): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      const { url, init, fetch: send = this.fetchImpl } = await build()
      const timeout = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs)
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
      let response: Response
      try {
        response = await send(url, { ...init, redirect: 'manual', signal })
      } catch (error) {
        if (options.signal?.aborted) {
          throw new ApiError({
            kind: 'aborted',
            request: label,
            origin: this.origin,
            attempts: attempt,
            cause: error,
          })
        }
        const failure = this.networkError(
          error,
          label,
          attempt,
          init.method !== 'GET',
          timeout.aborted,
        )
        const delay = idempotent
          ? retryDelay(
              { kind: failure.kind === 'timeout' ? 'timeout' : 'network' },
              attempt,
              this.retryPolicy,
              this.random,
            )
          : null
        if (delay !== null) {
          await this.pause(
            label,
            attempt,
            delay,
            failure.kind === 'timeout' ? 'no answer in time' : 'no answer',
            options.signal,
          )
          continue
        }
        throw failure
      }
      if (response.ok) return response
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
      const retryable = idempotent && RETRYABLE_STATUS.has(response.status)
      if (acceptAnyStatus && !retryable) return response
      const delay = retryable
        ? retryDelay(
            { kind: 'status', status: response.status, retryAfterMs },
            attempt,
            this.retryPolicy,
            this.random,
          )
        : null
      if (delay !== null) {
        await response.body?.cancel()
        await this.pause(label, attempt, delay, `HTTP ${response.status}`, options.signal)
        continue
      }
      if (acceptAnyStatus) return response
      const text = await response.text().catch(() => '')
      let serverMessage = errorText(text)
      if (response.status >= 300 && response.status < 400) {
        serverMessage = `it redirected to ${response.headers.get('location') ?? 'another address'}, which this app does not follow with your token`
      }
      throw new ApiError({
        kind: 'http',
        request: label,
        origin: this.origin,
        status: response.status,
        serverMessage,
        attempts: attempt,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      })
    }
  }

  private async pause(
    label: string,
    attempt: number,
    delayMs: number,
    reason: string,
    signal?: AbortSignal,
  ) {
    this.onRetry?.({ request: label, attempt, delayMs, reason })
    try {
      await this.sleep(delayMs, signal)
    } catch (error) {
      throw new ApiError({
        kind: 'aborted',
        request: label,
        origin: this.origin,
        attempts: attempt,
        cause: error,
      })
    }
  }

  private networkError(
    error: unknown,
    label: string,
    attempt: number,
    maybeHandled: boolean,
    timedOut = false,
  ): ApiError {
    const timeout = timedOut || (error instanceof Error && error.name === 'TimeoutError')
    return new ApiError({
      kind: timeout ? 'timeout' : 'unreachable',
      request: label,
      origin: this.origin,
      detail: timeout ? '' : networkDetail(error),
      attempts: attempt,
      maybeHandled,
      cause: error,
    })
  }
}

/**
 * A JSON body `{ ...fields, [key]: [b0,b1,...] }` streamed in chunks, so a large workbook never
 * becomes one huge array of numbers or one huge string.
 */
export function byteArrayJsonBody(
  fields: Record<string, unknown>,
  key: string,
  bytes: Uint8Array,
): StreamedBody {
  const head = JSON.stringify(fields)
  const prefix = `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:[`
  const CHUNK = 64 * 1024
  return {
    open() {
      const encoder = new TextEncoder()
      let offset = 0
      let started = false
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!started) {
            started = true
            controller.enqueue(encoder.encode(prefix))
            return
          }
          if (offset >= bytes.length) {
            controller.enqueue(encoder.encode(']}'))
            controller.close()
            return
          }
          const end = Math.min(bytes.length, offset + CHUNK)
          let text = offset === 0 ? '' : ','
          text += bytes.subarray(offset, end).join(',')
          offset = end
          controller.enqueue(encoder.encode(text))
        },
      })
    },
  }
}

/**
 * A JSON body `{ ...fields, [key]: "<base64>" }` whose base64 text comes from a stream of raw
 * byte chunks (e.g. a file read stream), encoded as it goes.
 */
export function base64JsonBody(
  fields: Record<string, unknown>,
  key: string,
  openBytes: () => AsyncIterable<Uint8Array>,
): StreamedBody {
  const head = JSON.stringify(fields)
  const prefix = `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:"`
  return {
    open() {
      const encoder = new TextEncoder()
      let iterator: AsyncIterator<Uint8Array> | undefined
      let carry: Uint8Array = new Uint8Array(0)
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(prefix))
        },
        async pull(controller) {
          iterator ??= openBytes()[Symbol.asyncIterator]()
          const next = await iterator.next()
          if (next.done) {
            controller.enqueue(encoder.encode(`${Buffer.from(carry).toString('base64')}"}`))
            controller.close()
            return
          }
          const joined = carry.length ? Buffer.concat([carry, next.value]) : next.value
          const usable = joined.length - (joined.length % 3)
          carry = joined.subarray(usable)
          if (usable > 0) {
            controller.enqueue(
              encoder.encode(
                Buffer.from(joined.buffer, joined.byteOffset, usable).toString('base64'),
              ),
            )
          }
        },
        async cancel() {
          await iterator?.return?.()
        },
      })
    },
  }
}

function clampPageSize(value: number | undefined, max: number): number | undefined {
  if (value === undefined) return undefined
  return Math.min(max, Math.max(1, Math.floor(value)))
}

/** The `error` of an error body, or a short piece of a non-JSON body. */
function errorText(text: string): string {
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

function networkDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  if (cause && typeof cause === 'object') {
    const code = (cause as { code?: unknown }).code
    if (code === 'ECONNREFUSED') return 'the connection was refused'
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name was not found'
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was cut'
    if (typeof code === 'string') return code
    if (cause instanceof Error) return cause.message
  }
  return error.message
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
