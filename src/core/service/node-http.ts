/**
 * The engine's own HTTP client over node:http and node:https, used wherever no fetch is given
 * (the command line, the browser-mode server, the tests; Electron gives its net.fetch).
 *
 * Why not Node's built-in fetch:
 * - fetch reads a streamed request body ahead of the socket, so a 200 MB upload held about twice
 *   its size in memory; node:http pipes with back-pressure and stays near the chunk size.
 * - fetch, Response and Headers load undici, about 30 ms of a command line's start; a validate
 *   that asks the service for one template paid that on every run.
 *
 * It answers with an HttpAnswer, the part of a fetch Response the transport reads, so Electron's
 * net.fetch and this client are interchangeable.
 */
import type * as Http from 'node:http'
import type { Agent as HttpAgent, IncomingMessage } from 'node:http'
import type { Agent as HttpsAgent } from 'node:https'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/** What the transport reads of an answer: a fetch Response has all of it. */
export interface HttpAnswer {
  readonly status: number
  readonly ok: boolean
  readonly headers: { get(name: string): string | null }
  readonly body: ReadableStream<Uint8Array> | null
}

/** What the transport puts in a request: a fetch RequestInit takes all of it. */
export interface HttpInit {
  method?: string
  headers?: Record<string, string>
  body?: string | ReadableStream<Uint8Array> | null
  signal?: AbortSignal | null
  /** Redirects are never followed (fetch needs to be told; node:http never follows them). */
  redirect?: 'manual'
  /** fetch needs this for a streamed body. */
  duplex?: 'half'
}

export type FetchLike = (input: string, init?: HttpInit) => Promise<HttpAnswer>

type HttpModule = typeof Http

/**
 * How long an idle kept connection is kept (ms): under the 5 s a Node server keeps one, so a
 * request rarely lands on a connection the service is closing; a server's own shorter
 * `Keep-Alive: timeout=` hint is followed too (Node applies it only when this is set). A request
 * that still meets a closed one fails as a cut connection: the transport sends again what may be
 * sent twice, and says of the rest that it may have been handled, as it did with fetch.
 */
const IDLE_SOCKET_MS = 4000

/**
 * A fetch over node:http with its own keep-alive agents (an idle kept socket does not hold the
 * process open). node:http and node:https (with tls) load on their first request.
 */
export function nodeHttpFetcher(): FetchLike {
  const agents: { http?: Promise<HttpAgent>; https?: Promise<HttpsAgent> } = {}
  const options = { keepAlive: true, timeout: IDLE_SOCKET_MS }
  const agentFor = (secure: boolean): Promise<HttpAgent> =>
    secure
      ? (agents.https ??= import('node:https').then((m) => new m.Agent(options)))
      : (agents.http ??= import('node:http').then((m) => new m.Agent(options)))
  return async (input, init = {}) => {
    const secure = new URL(input).protocol === 'https:'
    const agent = await agentFor(secure)
    const transport: Pick<HttpModule, 'request'> = secure
      ? await import('node:https')
      : await import('node:http')
    return nodeHttpFetch(transport, agent, input, init)
  }
}

/** JSON answers are asked for compressed (a big run's detail is several MB, read again often). */
function requestHeaders(init: HttpInit): Record<string, string> {
  const headers = { ...init.headers }
  const names = Object.keys(headers).map((name) => name.toLowerCase())
  const json = Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === 'accept' && value === 'application/json',
  )
  if (json && !names.includes('accept-encoding')) headers['Accept-Encoding'] = 'gzip'
  return headers
}

function nodeHttpFetch(
  transport: Pick<HttpModule, 'request'>,
  agent: HttpAgent,
  input: string,
  init: HttpInit,
): Promise<HttpAnswer> {
  const url = new URL(input)
  const signal = init.signal ?? undefined
  return new Promise<HttpAnswer>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const method = init.method ?? 'GET'
    const headers = requestHeaders(init)
    const request = transport.request(url, { method, headers, agent })
    let answer: IncomingMessage | undefined
    // The answer first: destroying the request alone would drain the answer, and its body
    // would end as a cut connection instead of with the signal's reason.
    const onAbort = () => {
      answer?.destroy(signal?.reason)
      request.destroy(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const fail = (error: unknown) => {
      signal?.removeEventListener('abort', onAbort)
      // Like fetch: an aborted request rejects with the signal's reason (e.g. a TimeoutError).
      reject(signal?.aborted ? signal.reason : error)
    }
    request.once('error', fail)
    request.once('response', (response) => {
      answer = response
      response.once('close', () => signal?.removeEventListener('abort', onAbort))
      answerOf(response, method).then(resolve, fail)
    })
    sendBody(request, init.body, fail)
  })
}

function sendBody(request: Http.ClientRequest, body: HttpInit['body'], fail: (e: unknown) => void) {
  // Strings and no body first: asking for ReadableStream loads web streams, which most never need.
  if (typeof body === 'string') {
    request.end(body)
  } else if (body === undefined || body === null) {
    request.end()
  } else if (body instanceof ReadableStream) {
    pipeline(Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]), request).catch(fail)
  } else {
    fail(new TypeError('the HTTP client sends strings and streams only'))
  }
}

async function answerOf(response: IncomingMessage, method: string): Promise<HttpAnswer> {
  const status = response.statusCode ?? 0
  const empty = status === 204 || status === 304 || method === 'HEAD'
  if (empty) response.resume()
  const headers = response.headers
  const gzipped = !empty && headers['content-encoding']?.toLowerCase() === 'gzip'
  let body: Readable = response
  if (gzipped) {
    // Unpacked as it is read: the reader's limit counts unpacked bytes, so a small answer that
    // unpacks to gigabytes is stopped like any other answer past its limit.
    const { createGunzip } = await import('node:zlib')
    const gunzip = createGunzip()
    pipeline(response, gunzip).catch(() => {})
    body = gunzip
  }
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: {
      // Node gives header names in lower case, and repeated ones as a list (fetch joins them).
      // Like fetch, an answer it unpacked no longer states the packed length or encoding.
      get(name) {
        const key = name.toLowerCase()
        if (gzipped && (key === 'content-encoding' || key === 'content-length')) return null
        const value = headers[key]
        if (value === undefined) return null
        return Array.isArray(value) ? value.join(', ') : value
      },
    },
    body: empty ? null : (Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>),
  }
}
