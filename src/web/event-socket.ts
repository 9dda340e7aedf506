/**
 * The engine's events pushed to the page over a WebSocket at WEB_EVENTS_PATH. An upgrade must be
 * for this server's Host, from its own Origin, and offer the app's subprotocol together with
 * `secret.<value>`; anything else gets a bare 403 and the connection is closed. The page only
 * listens: what it sends is ignored.
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket, WebSocketServer } from 'ws'
import { WEB_EVENTS_PATH, WEB_SECRET_SUBPROTOCOL_PREFIX, WEB_SUBPROTOCOL } from '../shared/bridge'
import type { RequestGate } from './request-gate'

export class EventSockets {
  private readonly clients = new Set<WebSocket>()

  private constructor(
    private readonly gate: RequestGate,
    private readonly refused: (reason: string) => void,
    private readonly sockets: WebSocketServer,
  ) {}

  /** ws is loaded when browser mode starts, not whenever the command line does. */
  static async create(gate: RequestGate, refused: (reason: string) => void): Promise<EventSockets> {
    const { WebSocketServer } = await import('ws')
    const sockets = new WebSocketServer({
      noServer: true,
      maxPayload: 64 * 1024,
      handleProtocols: (protocols) => (protocols.has(WEB_SUBPROTOCOL) ? WEB_SUBPROTOCOL : false),
    })
    return new EventSockets(gate, refused, sockets)
  }

  /** The HTTP server's 'upgrade' handler. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://local')
    if (!this.gate.hostOk(req))
      return this.refuse(socket, `socket for host ${req.headers.host ?? '(none)'}`)
    if (url.pathname !== WEB_EVENTS_PATH) return this.refuse(socket, `socket for ${url.pathname}`)
    if (!this.gate.originOk(req))
      return this.refuse(socket, `socket from origin ${req.headers.origin ?? '(none)'}`)
    if (!this.showsSecret(req)) return this.refuse(socket, 'socket without the secret')
    this.sockets.handleUpgrade(req, socket, head, (ws) => {
      this.clients.add(ws)
      ws.on('close', () => this.clients.delete(ws))
      ws.on('error', () => this.clients.delete(ws))
    })
  }

  /** Sends one event to every open page. */
  broadcast(event: string, payload: unknown): void {
    const frame = JSON.stringify({ event, payload })
    for (const ws of this.clients) if (ws.readyState === ws.OPEN) ws.send(frame)
  }

  close(): void {
    for (const ws of this.clients) ws.terminate()
    this.clients.clear()
    this.sockets.close()
  }

  /** A browser cannot set headers on a WebSocket, so the secret travels as a subprotocol. */
  private showsSecret(req: IncomingMessage): boolean {
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
    const presented = offered.find((p) => p.startsWith(WEB_SECRET_SUBPROTOCOL_PREFIX))
    return (
      offered.includes(WEB_SUBPROTOCOL) &&
      this.gate.secretMatches(presented?.slice(WEB_SECRET_SUBPROTOCOL_PREFIX.length))
    )
  }

  private refuse(socket: Duplex, reason: string): void {
    this.refused(reason)
    socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    socket.destroy()
  }
}
