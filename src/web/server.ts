/**
 * Browser mode's server: the built UI (out/renderer) and the Bridge over HTTP + WebSocket, on
 * the loopback interface only. Any other program on this computer can reach a loopback port,
 * and any web page can try to, so every request must show:
 *
 * - the Host it was sent to is this server by its loopback name (defeats DNS rebinding);
 * - for Bridge calls and the event socket: an Origin equal to this server's own origin, and the
 *   per-start secret (header `x-skill-runner-secret`, or the `secret.<value>` WebSocket
 *   subprotocol); never CORS headers, so no other origin can read an answer;
 * - for the UI's files: the secret in the address (`?s=`), after which an HttpOnly, SameSite=Strict
 *   cookie lets the page load its scripts and styles.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import {
  WEB_BRIDGE_PATH,
  WEB_EVENTS_PATH,
  WEB_SECRET_HEADER,
  WEB_SECRET_SUBPROTOCOL_PREFIX,
  WEB_SUBPROTOCOL,
  contentSecurityPolicy,
  forbiddenError,
  invalidArguments,
  mimeTypeFor,
  uiFileForPath,
  type BridgeEventName,
  type Dispatch,
} from '../shared/bridge'

export interface WebServerOptions {
  /** 127.0.0.1 (default), localhost or ::1. Anything that is not loopback is refused. */
  host?: string
  /** 0 picks a free port. */
  port?: number
  /** The built renderer (out/renderer). */
  rendererDir: string
  dispatch: Dispatch
  /** Listens to the engine's events; returns a function that stops listening. */
  subscribe: (listener: (event: BridgeEventName, payload: unknown) => void) => () => void
  /** Fixed secret for tests; a fresh random one otherwise. */
  secret?: string
  /** Largest accepted Bridge request body (default 64 MB: dropped files travel as base64). */
  maxBodyBytes?: number
  onRefused?: (reason: string) => void
}

export interface WebServer {
  /** The address to open: it carries the secret. */
  url: string
  origin: string
  port: number
  secret: string
  close(): Promise<void>
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1'])

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host)
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1'
  if (!isLoopbackHost(host)) {
    throw new Error(
      `Browser mode listens on this computer only (127.0.0.1, localhost or ::1), not on ${host}.`,
    )
  }
  const secret = options.secret ?? randomBytes(32).toString('base64url')
  const rendererRoot = resolve(options.rendererDir)
  const maxBody = options.maxBodyBytes ?? 64 * 1024 * 1024
  const refused = (reason: string) => options.onRefused?.(reason)
  let port = 0
  const allowedHosts = () =>
    host === '::1'
      ? [`[::1]:${port}`, `localhost:${port}`]
      : [`127.0.0.1:${port}`, `localhost:${port}`]
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`)
  const cookieName = () => `skill_runner_${port}`
  const csp = () =>
    contentSecurityPolicy({ connectSrc: allowedHosts().map((h) => `ws://${h}${WEB_EVENTS_PATH}`) })

  const secretMatches = (candidate: string | undefined | null): boolean => {
    if (!candidate) return false
    const a = Buffer.from(candidate)
    const b = Buffer.from(secret)
    return a.length === b.length && timingSafeEqual(a, b)
  }
  const hostOk = (req: IncomingMessage) =>
    allowedHosts().includes((req.headers.host ?? '').toLowerCase())
  const originOk = (req: IncomingMessage) => {
    const origin = req.headers.origin
    return typeof origin === 'string' && allowedOrigins().includes(origin.toLowerCase())
  }

  const baseHeaders = (): Record<string, string> => ({
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  })

  function sendText(res: ServerResponse, status: number, text: string) {
    res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'text/plain; charset=utf-8' })
    res.end(text)
  }
  function sendJson(res: ServerResponse, status: number, value: unknown) {
    res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify(value))
  }

  async function readBody(req: IncomingMessage): Promise<Buffer | null> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > maxBody) return null
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  }

  async function handleBridge(req: IncomingMessage, res: ServerResponse, verb: string) {
    if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: forbiddenError })
    if (!originOk(req)) {
      refused(`bridge call from origin ${req.headers.origin ?? '(none)'}`)
      return sendJson(res, 403, { ok: false, error: forbiddenError })
    }
    const header = req.headers[WEB_SECRET_HEADER]
    if (!secretMatches(typeof header === 'string' ? header : undefined)) {
      refused('bridge call without the secret')
      return sendJson(res, 403, { ok: false, error: forbiddenError })
    }
    const type = req.headers['content-type'] ?? ''
    if (!type.toLowerCase().startsWith('application/json')) {
      return sendJson(res, 415, {
        ok: false,
        error: invalidArguments({ _: 'Requests must be JSON.' }),
      })
    }
    const body = await readBody(req)
    if (body === null) {
      return sendJson(res, 413, {
        ok: false,
        error: {
          code: 'invalid-arguments',
          message: 'That file is too large to send from a browser.',
          nextStep: 'Use the desktop app for files this large, or split the workbook.',
        },
      })
    }
    let args: unknown
    try {
      args = body.length ? JSON.parse(body.toString('utf8')) : {}
    } catch {
      return sendJson(res, 400, {
        ok: false,
        error: invalidArguments({ _: 'The request was not valid JSON.' }),
      })
    }
    const result = await options.dispatch(decodeURIComponent(verb), args, { transport: 'http' })
    sendJson(res, 200, result)
  }

  function cookieSecret(req: IncomingMessage): string | null {
    const header = req.headers.cookie ?? ''
    for (const part of header.split(';')) {
      const [name, ...rest] = part.trim().split('=')
      if (name === cookieName()) return rest.join('=')
    }
    return null
  }

  async function handleFile(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method not allowed.')
    const fromQuery = url.searchParams.get('s')
    const viaQuery = secretMatches(fromQuery)
    if (!viaQuery && !secretMatches(cookieSecret(req))) {
      refused(`page ${url.pathname} without the secret`)
      return sendText(
        res,
        403,
        'Open Skill Runner with the full address it printed when it started (it contains a one-time key).',
      )
    }
    const relative = uiFileForPath(url.pathname)
    const file = relative === null ? null : resolve(join(rendererRoot, relative))
    if (file === null || !file.startsWith(rendererRoot + sep))
      return sendText(res, 404, 'Not found.')
    let content: Buffer
    try {
      content = await readFile(file)
    } catch {
      if (relative === 'index.html') {
        return sendText(
          res,
          503,
          'The app is not built yet. Run "npm run build", then start browser mode again.',
        )
      }
      return sendText(res, 404, 'Not found.')
    }
    const headers: Record<string, string> = { ...baseHeaders(), 'Content-Type': mimeTypeFor(file) }
    if (file.endsWith('.html')) headers['Content-Security-Policy'] = csp()
    const response: Record<string, string | string[]> = headers
    if (viaQuery) {
      response['Set-Cookie'] = `${cookieName()}=${secret}; HttpOnly; SameSite=Strict; Path=/`
    }
    res.writeHead(200, response)
    res.end(req.method === 'HEAD' ? undefined : content)
  }

  const server = createServer((req, res) => {
    if (!hostOk(req)) {
      refused(`request for host ${req.headers.host ?? '(none)'}`)
      return sendText(res, 403, 'This server answers only at its own loopback address.')
    }
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://local')
    } catch {
      return sendText(res, 400, 'Bad address.')
    }
    const task = url.pathname.startsWith(WEB_BRIDGE_PATH)
      ? handleBridge(req, res, url.pathname.slice(WEB_BRIDGE_PATH.length))
      : handleFile(req, res, url)
    task.catch(() => {
      if (!res.headersSent) sendText(res, 500, 'Skill Runner could not answer this request.')
      else res.destroy()
    })
  })
  server.headersTimeout = 20_000
  server.requestTimeout = 120_000

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    handleProtocols: (protocols) => (protocols.has(WEB_SUBPROTOCOL) ? WEB_SUBPROTOCOL : false),
  })
  const clients = new Set<WebSocket>()

  function refuseUpgrade(socket: Duplex, reason: string) {
    refused(reason)
    socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    socket.destroy()
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://local')
    if (!hostOk(req))
      return refuseUpgrade(socket, `socket for host ${req.headers.host ?? '(none)'}`)
    if (url.pathname !== WEB_EVENTS_PATH) return refuseUpgrade(socket, `socket for ${url.pathname}`)
    if (!originOk(req))
      return refuseUpgrade(socket, `socket from origin ${req.headers.origin ?? '(none)'}`)
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
    const presented = offered.find((p) => p.startsWith(WEB_SECRET_SUBPROTOCOL_PREFIX))
    if (
      !offered.includes(WEB_SUBPROTOCOL) ||
      !secretMatches(presented?.slice(WEB_SECRET_SUBPROTOCOL_PREFIX.length))
    ) {
      return refuseUpgrade(socket, 'socket without the secret')
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws)
      ws.on('close', () => clients.delete(ws))
      ws.on('error', () => clients.delete(ws))
      // The page only listens; anything it sends is ignored.
    })
  })

  const unsubscribe = options.subscribe((event, payload) => {
    const frame = JSON.stringify({ event, payload })
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame)
  })

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', rejectListen)
      resolveListen()
    })
  })
  const address = server.address()
  port = typeof address === 'object' && address ? address.port : 0
  const origin =
    host === '::1'
      ? `http://[::1]:${port}`
      : `http://${host === 'localhost' ? 'localhost' : '127.0.0.1'}:${port}`

  return {
    url: `${origin}/?s=${secret}`,
    origin,
    port,
    secret,
    async close() {
      unsubscribe()
      for (const ws of clients) ws.terminate()
      clients.clear()
      sockets.close()
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
    },
  }
}
