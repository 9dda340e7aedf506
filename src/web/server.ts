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
import { createServer, type RequestListener, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { WEB_BRIDGE_PATH, type BridgeEventName, type Dispatch } from '../shared/bridge'
import { handleBridgeCall, type BridgeEndpoint } from './bridge-endpoint'
import { EventSockets } from './event-socket'
import { sendText } from './http-answers'
import { RequestGate } from './request-gate'
import { serveUiFile, type UiFiles } from './ui-files'

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

/** Every HTTP request: the Host check first, then the Bridge's endpoint or the UI's files. */
function routeRequest(routes: BridgeEndpoint & UiFiles): RequestListener {
  return (req, res) => {
    if (!routes.gate.hostOk(req)) {
      routes.refused(`request for host ${req.headers.host ?? '(none)'}`)
      return sendText(res, 403, 'This server answers only at its own loopback address.')
    }
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://local')
    } catch {
      return sendText(res, 400, 'Bad address.')
    }
    const task = url.pathname.startsWith(WEB_BRIDGE_PATH)
      ? handleBridgeCall(routes, req, res, url.pathname.slice(WEB_BRIDGE_PATH.length))
      : serveUiFile(routes, req, res, url)
    task.catch(() => {
      if (!res.headersSent) sendText(res, 500, 'Skill Runner could not answer this request.')
      else res.destroy()
    })
  }
}

/** Starts listening; resolves with the port (the one picked when 0 was asked for). */
async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen)
    server.listen(port, host, () => {
      server.off('error', rejectListen)
      resolveListen()
    })
  })
  const address = server.address()
  return typeof address === 'object' && address ? address.port : 0
}

/** The origin a browser is sent to: IPv6 in brackets, localhost kept, anything else 127.0.0.1. */
function originFor(host: string, port: number): string {
  return host === '::1'
    ? `http://[::1]:${port}`
    : `http://${host === 'localhost' ? 'localhost' : '127.0.0.1'}:${port}`
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1'
  if (!isLoopbackHost(host)) {
    throw new Error(
      `Browser mode listens on this computer only (127.0.0.1, localhost or ::1), not on ${host}.`,
    )
  }
  const gate = new RequestGate(host, options.secret ?? randomBytes(32).toString('base64url'))
  const refused = (reason: string) => options.onRefused?.(reason)
  const server = createServer(
    routeRequest({
      gate,
      refused,
      dispatch: options.dispatch,
      maxBodyBytes: options.maxBodyBytes ?? 64 * 1024 * 1024,
      rendererRoot: resolve(options.rendererDir),
    }),
  )
  server.headersTimeout = 20_000
  server.requestTimeout = 120_000

  const events = new EventSockets(gate, refused)
  server.on('upgrade', (req, socket, head) => events.upgrade(req, socket, head))
  const unsubscribe = options.subscribe((event, payload) => events.broadcast(event, payload))

  const port = await listen(server, options.port ?? 0, host)
  gate.listeningOn(port)
  const origin = originFor(host, port)
  return {
    url: `${origin}/?s=${gate.secret}`,
    origin,
    port,
    secret: gate.secret,
    async close() {
      unsubscribe()
      events.close()
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
    },
  }
}
