/**
 * The built renderer's files (out/renderer), served only to a browser that shows the secret: in
 * the address (`?s=`) the first time, after which an HttpOnly, SameSite=Strict cookie lets the
 * page load its scripts and styles. HTML pages carry the Content-Security-Policy, whose
 * connect-src names only this server's event socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import {
  WEB_EVENTS_PATH,
  contentSecurityPolicy,
  mimeTypeFor,
  uiFileForPath,
} from '../shared/bridge'
import { baseHeaders, sendText } from './http-answers'
import type { RequestGate } from './request-gate'

export interface UiFiles {
  gate: RequestGate
  /** The built renderer's folder, resolved to an absolute path. */
  rendererRoot: string
  refused: (reason: string) => void
}

const withoutSecret =
  'Open Skill Runner with the full address it printed when it started (it contains a one-time key).'
const notBuilt = 'The app is not built yet. Run "npm run build", then start browser mode again.'

function csp(gate: RequestGate): string {
  return contentSecurityPolicy({
    connectSrc: gate.allowedHosts().map((h) => `ws://${h}${WEB_EVENTS_PATH}`),
  })
}

/** The file inside the renderer's folder that the address names, or null for none. */
function fileFor(rendererRoot: string, relative: string | null): string | null {
  const file = relative === null ? null : resolve(join(rendererRoot, relative))
  return file === null || !file.startsWith(rendererRoot + sep) ? null : file
}

/** The answer's headers; the cookie is set when the secret came in the address. */
function fileHeaders(gate: RequestGate, file: string, setCookie: boolean) {
  const headers: Record<string, string> = { ...baseHeaders(), 'Content-Type': mimeTypeFor(file) }
  if (file.endsWith('.html')) headers['Content-Security-Policy'] = csp(gate)
  const response: Record<string, string | string[]> = headers
  if (setCookie) {
    response['Set-Cookie'] =
      `${gate.cookieName()}=${gate.secret}; HttpOnly; SameSite=Strict; Path=/`
  }
  return response
}

export async function serveUiFile(
  files: UiFiles,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { gate } = files
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendText(res, 405, 'Method not allowed.')
  const viaQuery = gate.secretMatches(url.searchParams.get('s'))
  if (!viaQuery && !gate.secretMatches(gate.cookieSecret(req))) {
    files.refused(`page ${url.pathname} without the secret`)
    return sendText(res, 403, withoutSecret)
  }
  const relative = uiFileForPath(url.pathname)
  const file = fileFor(files.rendererRoot, relative)
  if (file === null) return sendText(res, 404, 'Not found.')
  let content: Buffer
  try {
    content = await readFile(file)
  } catch {
    if (relative === 'index.html') return sendText(res, 503, notBuilt)
    return sendText(res, 404, 'Not found.')
  }
  res.writeHead(200, fileHeaders(gate, file, viaQuery))
  res.end(req.method === 'HEAD' ? undefined : content)
}
