/** The types the Bridge layer's files share (so none of them imports the service that composes them). */
import type { BridgeEventName, BridgeEvents } from '../../shared/bridge'

export type Emit = <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]) => void

/** Who the app is, for "About" and the window's title. */
export interface AppIdentity {
  name: string
  version: string
  platform: string
}

/**
 * What the shell around the page offers: the desktop app's dialogs and file manager; a browser
 * offers none of them (files then go to the page as bytes, and folders are typed).
 */
export interface ShellDialogs {
  /** A save dialog for a file the app makes; null when cancelled. */
  chooseSavePath?: (suggestedName: string, title: string) => Promise<string | null>
  /** Opens a saved file with the system's app for it. */
  openPath?: (path: string) => Promise<void>
  /** Shows a file in the file manager. Without it the path is only given back to be copied. */
  showItemInFolder?: (path: string) => void
  /** The system's folder picker, starting at `current`; null when cancelled. */
  chooseFolder?: (title: string, current: string) => Promise<string | null>
  /** Where outputs go when the user chose no folder (tests use their own folder). */
  defaultOutputsFolder?: () => string
}

export interface RunFollowOptions {
  /** Run-list follow intervals (ms): the first, and the longest after quiet periods. */
  followMinMs?: number
  followMaxMs?: number
  /** How often the local history is checked for new submissions while runs are watched (ms). */
  submissionsCheckMs?: number
  /** How many newest runs one follow request covers (default 50). */
  followPageSize?: number
  /** While a service cannot be reached, how often it is asked again (ms, default 30 s). */
  outageRetryMs?: number
  /**
   * An open run of more tasks than this has its detail pushed as what changed
   * (runDetailChanged) instead of whole at each change (default 1,000).
   */
  wholeDetailUpTo?: number
  /**
   * An open run of more tasks or outputs than this is read into the history and shown a window
   * of rows at a time (getRunRows), its changes pushed as counts alone (default WINDOWED_FROM).
   */
  windowedFrom?: number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

export interface BridgeServiceOptions extends RunFollowOptions {
  shell: 'electron' | 'browser'
  app: AppIdentity
  dialogs?: ShellDialogs
  /**
   * The environment this session opens on (`web --env NAME`): shown as the default until the user
   * picks another in the app; the saved default is not changed.
   */
  opensOn?: string | null
}

/**
 * Calls `send` at most once every `ms`, and always for a final value. A value held back is sent
 * when its `ms` are up unless a newer one came first, so the last word before a long wait (an
 * upload whose body is all on the wire, waiting for the answer) is never lost.
 */
export function throttled<T>(
  ms: number,
  send: (value: T) => void,
  isFinal: (value: T) => boolean = () => false,
): (value: T) => void {
  let last = 0
  let held: { value: T } | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  const sendNow = (value: T) => {
    held = null
    if (timer) clearTimeout(timer)
    timer = null
    last = Date.now()
    send(value)
  }
  return (value) => {
    const waited = Date.now() - last
    if (isFinal(value) || waited >= ms) return sendNow(value)
    held = { value }
    timer ??= setTimeout(() => {
      timer = null
      if (held) sendNow(held.value)
    }, ms - waited)
  }
}
