/**
 * A small fetch over node:http for request bodies that are streams. Node's built-in fetch reads
 * a streamed request body ahead of the socket, so a 200 MB upload held about twice its size in
 * memory; node:http pipes with back-pressure and stays near the chunk size. Used only where no
 * fetch was given to the client (Electron gives its own net.fetch).
 */
import type * as Http from 'node:http'
import type { Agent as HttpAgent } from 'node:http'
import type { Agent as HttpsAgent } from 'node:https'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

type HttpModule = typeof Http

/**
 * A fetch over node:http with its own keep-alive agents. node:http and node:https (with tls) load
 * on its first request, not when the command line starts: most commands never stream a body.
 */
export function nodeHttpFetcher(): (input: string, init?: RequestInit) => Promise<Response> {
  const agents: { http?: Promise<HttpAgent>; https?: Promise<HttpsAgent> } = {}
  const agentFor = (secure: boolean): Promise<HttpAgent> =>
    secure
      ? (agents.https ??= import('node:https').then((m) => new m.Agent({ keepAlive: true })))
      : (agents.http ??= import('node:http').then((m) => new m.Agent({ keepAlive: true })))
  return async (input, init = {}) => {
    const secure = new URL(input).protocol === 'https:'
    const agent = await agentFor(secure)
    const transport: Pick<HttpModule, 'request'> = secure
      ? await import('node:https')
      : await import('node:http')
    return nodeHttpFetch(transport, agent, input, init)
  }
}

function nodeHttpFetch(
  transport: Pick<HttpModule, 'request'>,
  agent: HttpAgent,
  input: string,
  init: RequestInit,
): Promise<Response> {
  const url = new URL(input)
  const signal = init.signal ?? undefined
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const headers = new Headers(init.headers)
    const request = transport.request(url, {
      method: init.method ?? 'GET',
      headers: Object.fromEntries(headers.entries()),
      agent,
    })
    const onAbort = () => request.destroy(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    const fail = (error: unknown) => {
      signal?.removeEventListener('abort', onAbort)
      // Like fetch: an aborted request rejects with the signal's reason (e.g. a TimeoutError).
      reject(signal?.aborted ? signal.reason : error)
    }
    request.once('error', fail)
    request.once('response', (response) => {
      const answer = new Headers()
      for (const [name, value] of Object.entries(response.headers)) {
        if (Array.isArray(value)) for (const v of value) answer.append(name, v)
        else if (value !== undefined) answer.set(name, value)
      }
      const status = response.statusCode ?? 0
      const empty = status === 204 || status === 304 || init.method === 'HEAD'
      response.once('end', () => signal?.removeEventListener('abort', onAbort))
      const body = empty
        ? null
        : (Readable.toWeb(response) as unknown as ReadableStream<Uint8Array>)
      if (empty) response.resume()
      resolve(new Response(body, { status, statusText: response.statusMessage, headers: answer }))
    })
    const body = init.body
    if (body instanceof ReadableStream) {
      pipeline(Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]), request).catch(
        fail,
      )
    } else if (typeof body === 'string' || body instanceof Uint8Array) {
      request.end(body)
    } else if (body === undefined || body === null) {
      request.end()
    } else {
      fail(new TypeError('nodeHttpFetch sends strings, bytes and streams only'))
    }
  })
}
