/**
 * An artifact's accessUrl, fetched as a stream. It may point anywhere, so the token goes only to
 * the environment's origin, and redirects are followed by hand: once a hop leaves the origin, no
 * later hop gets the token either, even one that comes back.
 *
 * The bytes of a 2xx answer are the caller's to stream (to disk, unbounded); until they start,
 * each hop has the transport's deadline, and an error body is read only up to its limit.
 */
import { errorBody, errorText, networkFailure } from './answers'
import { ApiError } from './errors'
import { MAX_ERROR_BODY_BYTES } from './limits'
import type { HttpAnswer } from './node-http'
import type { Transport } from './transport'
import { defined } from '../../shared/defined'

export interface ArtifactFetchInit {
  headers?: Record<string, string>
  signal?: AbortSignal
  method?: 'GET' | 'HEAD'
}

const MAX_REDIRECTS = 5

/** Fetches an artifact's accessUrl and returns the streaming answer (2xx only). */
export async function fetchArtifact(
  transport: Transport,
  accessUrl: string,
  init: ArtifactFetchInit = {},
): Promise<HttpAnswer> {
  let url = new URL(accessUrl, transport.baseUrl + '/')
  let trusted = true
  const method = init.method ?? 'GET'
  for (let hop = 0; ; hop += 1) {
    const label = `${method} ${url.origin}${url.pathname}`
    const refused = async (status: number, serverMessage: string, limitBytes?: number) =>
      new ApiError({
        kind: 'http',
        request: label,
        origin: url.origin,
        status,
        serverMessage,
        redact: await transport.redactor(),
        ...defined({ limitBytes }),
      })
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw await refused(400, `unsupported address ${url.protocol}`)
    }
    trusted = trusted && url.origin === transport.origin
    const headers: Record<string, string> = { ...init.headers }
    if (trusted) await transport.authorize(headers)
    const hopDeadline = deadlineUntilCleared(transport.timeoutMs)
    const signal = init.signal
      ? AbortSignal.any([init.signal, hopDeadline.signal])
      : hopDeadline.signal
    let response: HttpAnswer
    try {
      response = await transport.fetch(url.href, { method, headers, redirect: 'manual', signal })
    } catch (error) {
      hopDeadline.clear()
      throw networkFailure(
        error,
        { label, origin: transport.origin },
        1,
        false,
        hopDeadline.signal.aborted,
      )
    }
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      hopDeadline.clear()
      await response.body?.cancel()
      if (hop >= MAX_REDIRECTS) throw await refused(response.status, 'too many redirects')
      url = new URL(location, url)
      continue
    }
    if (!response.ok) {
      const body = await errorBody(response, signal)
      hopDeadline.clear()
      throw await refused(
        response.status,
        errorText(body.text),
        body.cut ? MAX_ERROR_BODY_BYTES : undefined,
      )
    }
    // The bytes may take as long as they need: the caller streams them and can cancel.
    hopDeadline.clear()
    return response
  }
}

/**
 * A deadline that can be called off: once the headers of a 2xx answer are in, the transfer of
 * its bytes must not be cut by it (AbortSignal.timeout cannot be cleared).
 */
function deadlineUntilCleared(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('no answer in time', 'TimeoutError')),
    ms,
  )
  return { signal: controller.signal, clear: () => clearTimeout(timer) }
}
