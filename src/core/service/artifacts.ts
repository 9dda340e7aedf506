/**
 * An artifact's accessUrl, fetched as a stream. It may point anywhere, so the token goes only to
 * the environment's origin, and redirects are followed by hand: once a hop leaves the origin, no
 * later hop gets the token either, even one that comes back.
 */
import { errorText, networkFailure } from './answers'
import { ApiError } from './errors'
import type { Transport } from './transport'

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
): Promise<Response> {
  let url = new URL(accessUrl, transport.baseUrl + '/')
  let trusted = true
  const method = init.method ?? 'GET'
  for (let hop = 0; ; hop += 1) {
    const label = `${method} ${url.origin}${url.pathname}`
    const refused = (status: number, serverMessage: string) =>
      new ApiError({ kind: 'http', request: label, origin: url.origin, status, serverMessage })
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw refused(400, `unsupported address ${url.protocol}`)
    }
    trusted = trusted && url.origin === transport.origin
    const headers: Record<string, string> = { ...init.headers }
    if (trusted) await transport.authorize(headers)
    let response: Response
    try {
      response = await transport.fetch(url.href, {
        method,
        headers,
        redirect: 'manual',
        ...(init.signal ? { signal: init.signal } : {}),
      })
    } catch (error) {
      throw networkFailure(error, { label, origin: transport.origin }, 1, false)
    }
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      if (hop >= MAX_REDIRECTS) throw refused(response.status, 'too many redirects')
      url = new URL(location, url)
      continue
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '')
      throw refused(response.status, errorText(text))
    }
    return response
  }
}
