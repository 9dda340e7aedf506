/**
 * Serves the built UI (out/renderer) on app://skill-runner/, so the window never uses file://
 * (Electron's security checklist). The handler is a plain function of a Request, tested in Node.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { mimeTypeFor, uiFileForPath } from '../shared/bridge'
import { APP_HOST, APP_SCHEME } from './security'

export interface AppProtocolOptions {
  rendererDir: string
  csp: string
  read?: (path: string) => Promise<Uint8Array>
}

export function createAppProtocolHandler(
  options: AppProtocolOptions,
): (request: Request) => Promise<Response> {
  const root = resolve(options.rendererDir)
  const read = options.read ?? ((path: string) => readFile(path))
  const headers = (type: string) => ({
    'Content-Type': type,
    'Content-Security-Policy': options.csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  })
  const notFound = () => new Response('Not found', { status: 404, headers: headers('text/plain') })
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: headers('text/plain') })
    }
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return notFound()
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound()
    const relative = uiFileForPath(url.pathname)
    if (relative === null) return notFound()
    const file = resolve(join(root, relative))
    if (file !== root && !file.startsWith(root + sep)) return notFound()
    try {
      const body = await read(file)
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
        status: 200,
        headers: headers(mimeTypeFor(file)),
      })
    } catch {
      return notFound()
    }
  }
}

/** The privileges the app:// scheme needs (registered before the app is ready). */
export const appSchemePrivileges = {
  scheme: APP_SCHEME,
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: false,
    corsEnabled: false,
    stream: false,
  },
}
