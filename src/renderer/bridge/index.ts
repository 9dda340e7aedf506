/**
 * Picks the Bridge transport once, at start: the preload's functions inside the desktop app,
 * HTTP + WebSocket in browser mode. Everything else in the UI uses `bridge` and cannot tell.
 */
import type { BridgeApi, PreloadApi } from '../../shared/bridge'
import { createBridgeClient } from '../../shared/bridge/client'
import { PRELOAD_GLOBAL } from '../../shared/bridge/preload-api'
import { createIpcTransport } from './ipc-transport'
import { createWebTransport, takeSecret, type ConnectionState } from './web-transport'

declare global {
  interface Window {
    skillRunner?: PreloadApi
  }
}

export interface UiBridge {
  api: BridgeApi
  shell: 'electron' | 'browser'
  /** The desktop path of a dropped file; '' in a browser. */
  pathForFile(file: File): string
  /** Browser mode only: the event connection's state. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void
}

export function connectBridge(win: Window): UiBridge {
  const preload = (win as unknown as Record<string, PreloadApi | undefined>)[PRELOAD_GLOBAL]
  if (preload) {
    return {
      api: createBridgeClient(createIpcTransport(preload)),
      shell: 'electron',
      pathForFile: (file) => preload.pathForFile(file),
      onConnectionChange: () => () => {},
    }
  }
  const transport = createWebTransport(win, takeSecret(win))
  return {
    api: createBridgeClient(transport),
    shell: 'browser',
    pathForFile: () => '',
    onConnectionChange: (listener) => transport.onConnectionChange(listener),
  }
}

export type { ConnectionState }
