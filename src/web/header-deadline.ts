/**
 * Every connection's headers have a deadline kept by the server itself. Node's own check
 * (`headersTimeout`) loses sight of a kept-alive connection between two requests: a client that
 * sends blank lines after its first answer never begins a request, so that check never sees it,
 * and each byte refreshes the keep-alive timer, so the connection would be held for ever.
 *
 * The deadline starts when a connection opens and again when its last answer ends; the headers
 * of its next request stop it. When it passes, the client is answered 408 and the connection
 * closes. An answer being worked out (a long Bridge call) is never cut by it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'

interface Waiting {
  timer: NodeJS.Timeout | null
  /** Requests whose headers came and whose answers have not ended yet. */
  answering: number
}

export function enforceHeaderDeadline(server: Server, headersMs: number): void {
  const waiting = new WeakMap<Socket, Waiting>()
  const stop = (state: Waiting) => {
    if (state.timer) clearTimeout(state.timer)
    state.timer = null
  }
  const start = (socket: Socket, state: Waiting) => {
    stop(state)
    if (state.answering > 0 || socket.destroyed) return
    state.timer = setTimeout(() => {
      socket.write(TIMED_OUT)
      socket.destroySoon()
    }, headersMs)
    state.timer.unref()
  }

  server.on('connection', (socket: Socket) => {
    const state: Waiting = { timer: null, answering: 0 }
    waiting.set(socket, state)
    start(socket, state)
    socket.once('close', () => stop(state))
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket
    const state = waiting.get(socket)
    if (!state) return
    state.answering += 1
    stop(state)
    res.once('close', () => {
      state.answering -= 1
      start(socket, state)
    })
  })
  server.on('upgrade', (req: IncomingMessage) => {
    const state = waiting.get(req.socket)
    if (state) stop(state)
  })
}
