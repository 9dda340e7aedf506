/**
 * The UI's view of the Bridge: one async function per verb and `on(event, listener)` returning
 * an unsubscribe function. The transport underneath is Electron IPC (through the preload) or
 * HTTP + WebSocket (browser mode); the UI cannot tell which.
 */
import type {
  BridgeEventName,
  BridgeEvents,
  RequestInput,
  RequestName,
  RequestResult,
} from './contract'
import { REQUEST_NAMES } from './names'
import { unwrapResult } from './errors'

export interface BridgeTransport {
  /** Sends one request; resolves with the raw envelope `{ ok, value | error }`. */
  invoke(verb: RequestName, args: unknown): Promise<unknown>
  /** Listens to one event; returns a function that stops listening. */
  subscribe(event: BridgeEventName, listener: (payload: unknown) => void): () => void
}

export type BridgeRequestsApi = {
  [K in RequestName]: (args: RequestInput<K>) => Promise<RequestResult<K>>
}

export interface BridgeApi extends BridgeRequestsApi {
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void
}

export function createBridgeClient(transport: BridgeTransport): BridgeApi {
  const api: Record<string, unknown> = {}
  for (const name of REQUEST_NAMES) {
    api[name] = async (args: unknown) => unwrapResult(await transport.invoke(name, args ?? {}))
  }
  api.on = (event: BridgeEventName, listener: (payload: never) => void) =>
    transport.subscribe(event, listener as (payload: unknown) => void)
  return api as unknown as BridgeApi
}
