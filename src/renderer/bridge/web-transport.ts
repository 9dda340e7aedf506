/**
 * Browser mode's Bridge transport: requests are POSTs to /bridge/<verb> on the page's own
 * origin, events arrive over one WebSocket. Both carry the per-start secret that was in the
 * address the app printed (`?s=...`); the page keeps it for this tab and removes it from the
 * address bar.
 */
import type { BridgeErrorInfo, BridgeEventName, BridgeTransport } from '../../shared/bridge'
import {
  WEB_BRIDGE_PATH,
  WEB_EVENTS_PATH,
  WEB_SECRET_HEADER,
  WEB_SECRET_SUBPROTOCOL_PREFIX,
  WEB_SUBPROTOCOL,
} from '../../shared/bridge/names'

const SECRET_KEY = 'skill-runner.secret'

/** Reads the secret from the address (and then hides it) or from this tab's storage. */
export function takeSecret(win: Window): string {
  const url = new URL(win.location.href)
  const fromUrl = url.searchParams.get('s')
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(SECRET_KEY, fromUrl)
    } catch {
      // Storage may be disabled; the secret then lives only in this page.
    }
    url.searchParams.delete('s')
    win.history.replaceState(null, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  try {
    return win.sessionStorage.getItem(SECRET_KEY) ?? ''
  } catch {
    return ''
  }
}

const engineGone: BridgeErrorInfo = {
  code: 'unreachable',
  message: 'The page lost its connection to Skill Runner’s engine.',
  nextStep:
    'If you stopped Skill Runner, start it again (npm start) and open the new address it prints.',
}

export type ConnectionState = 'connecting' | 'open' | 'closed'

export interface WebTransport extends BridgeTransport {
  onConnectionChange(listener: (state: ConnectionState) => void): () => void
  close(): void
}

/** One pushed event from the socket; anything else (not JSON, no event name) is ignored. */
function parseEvent(data: unknown): { event: string; payload: unknown } | null {
  if (typeof data !== 'string') return null
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const { event, payload } = parsed as { event?: unknown; payload?: unknown }
  return typeof event === 'string' ? { event, payload } : null
}

export function createWebTransport(win: Window, secret: string): WebTransport {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const connectionListeners = new Set<(state: ConnectionState) => void>()
  let socket: WebSocket | null = null
  let closed = false
  let retryMs = 500

  const setState = (state: ConnectionState) => {
    for (const listener of connectionListeners) listener(state)
  }

  function connect() {
    if (closed) return
    const scheme = win.location.protocol === 'https:' ? 'wss:' : 'ws:'
    setState('connecting')
    const ws = new WebSocket(`${scheme}//${win.location.host}${WEB_EVENTS_PATH}`, [
      WEB_SUBPROTOCOL,
      `${WEB_SECRET_SUBPROTOCOL_PREFIX}${secret}`,
    ])
    socket = ws
    ws.onopen = () => {
      retryMs = 500
      setState('open')
    }
    ws.onmessage = (message) => {
      const pushed = parseEvent(message.data)
      if (pushed) for (const listener of listeners.get(pushed.event) ?? []) listener(pushed.payload)
    }
    ws.onclose = () => {
      socket = null
      if (closed) return
      setState('closed')
      // Reconnect with back-off: the engine may be restarting.
      win.setTimeout(connect, retryMs)
      retryMs = Math.min(retryMs * 2, 10_000)
    }
  }
  connect()

  return {
    async invoke(verb, args) {
      try {
        const response = await win.fetch(`${WEB_BRIDGE_PATH}${verb}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [WEB_SECRET_HEADER]: secret },
          body: JSON.stringify(args ?? {}),
          credentials: 'same-origin',
          cache: 'no-store',
        })
        return await response.json()
      } catch {
        return { ok: false, error: engineGone }
      }
    },
    subscribe(event: BridgeEventName, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
      return () => {
        set.delete(listener)
      }
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener)
      return () => {
        connectionListeners.delete(listener)
      }
    },
    close() {
      closed = true
      socket?.close()
    },
  }
}
