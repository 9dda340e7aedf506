/**
 * The shape of `window.skillRunner`, which the Electron preload exposes through contextBridge:
 * one function per verb of the contract, one `onX` function per event, and `pathForFile` for
 * dropped files. Nothing else (in particular, never ipcRenderer).
 */
import type { BridgeEventName, BridgeEvents, RequestName } from './contract'

export const PRELOAD_GLOBAL = 'skillRunner'

/** A DOM File as far as the preload needs it (shared code has no DOM types). */
export interface FileLike {
  readonly name: string
  readonly size: number
}

export type EventSubscriberName<E extends BridgeEventName> = `on${Capitalize<E>}`

export function eventSubscriberName<E extends BridgeEventName>(event: E): EventSubscriberName<E> {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as EventSubscriberName<E>
}

export type PreloadApi = {
  /** Resolves with the raw envelope `{ ok, value | error }`. */
  [K in RequestName]: (args: unknown) => Promise<unknown>
} & {
  [E in BridgeEventName as EventSubscriberName<E>]: (
    listener: (payload: BridgeEvents[E]) => void,
  ) => () => void
} & {
  /** The file's path on disk (desktop only); '' when it has none. */
  pathForFile(file: FileLike): string
}
