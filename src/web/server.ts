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
import { EngineError } from '../core/errors'
import { WEB_BRIDGE_PATH, type BridgeEventName, type Dispatch } from '../shared/bridge'
import { handleBridgeCall, type BridgeEndpoint } from './bridge-endpoint'
import { EventSockets } from './event-socket'
import { enforceHeaderDeadline } from './header-deadline'
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
  /** How long a slow client may take; WEB_SERVER_TIMEOUTS unless a test wants shorter. */
  timeouts?: WebServerTimeouts
  onRefused?: (reason: string) => void
}

export interface WebServerTimeouts {
  /** From the connection to the end of the request's headers. */
  headersMs: number
  /** From the connection to the end of the request's body (not the time taken to answer). */
  requestMs: number
  /** How often Node looks for connections over those limits. */
  checkEveryMs: number
}

/**
 * Set here rather than left to Node, whose defaults differ between versions: a client whose
 * headers never end holds a connection for at most headersMs (header-deadline.ts; Node's own
 * check, every checkEveryMs, catches the same clients on a new connection); a body that
 * trickles, for at most requestMs + checkEveryMs. A 64 MB upload over loopback takes a second.
 */
export const WEB_SERVER_TIMEOUTS: WebServerTimeouts = {
  headersMs: 20_000,
  requestMs: 60_000,
  checkEveryMs: 5_000,
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

/**
 * Refuses an address to listen on that other computers could reach. Browser mode trusts every
 * caller that shows the secret, and the secret travels in plain HTTP: on a network, anyone on
 * the way could read it. An SSH tunnel carries it encrypted to a loopback port instead. The
 * tunnel keeps the port number, since the server answers only to its own Host.
 */
export function requireLoopbackHost(host: string): void {
  if (isLoopbackHost(host)) return
  throw new EngineError(
    'bad-input',
    `Browser mode listens on this computer only (127.0.0.1, localhost or ::1), not on ${host}: it is not protected for use over a network.`,
    'To use it from another computer, start it here on a fixed port (for example 8080) and reach it through an SSH tunnel: on the other computer run “ssh -L 8080:127.0.0.1:8080 you@this-computer”, then open the address it printed there. Use the same port number on both sides.',
  )
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1'
  requireLoopbackHost(host)
  const gate = new RequestGate(host, options.secret ?? randomBytes(32).toString('base64url'))
  const refused = (reason: string) => options.onRefused?.(reason)
  const timeouts = options.timeouts ?? WEB_SERVER_TIMEOUTS
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    routeRequest({
      gate,
      refused,
      dispatch: options.dispatch,
      rendererRoot: resolve(options.rendererDir),
    }),
  )

  enforceHeaderDeadline(server, timeouts.headersMs)

  const events = await EventSockets.create(gate, refused)
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
