/**
 * The one typed wrapper around Electron IPC (the only file that touches ipcMain; a lint rule
 * enforces it). Every Bridge verb gets one `handle` channel. Before anything else, each call is
 * checked: it must come from a window the app created, from its main frame, showing the app's
 * own origin; then the arguments are validated by the shared dispatcher (zod, from the contract).
 */
import {
  forbiddenError,
  invalidArguments,
  ipcEventChannel,
  ipcRequestChannel,
  requestNames,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeResult,
  type Dispatch,
} from '../shared/bridge'
import { originOf } from './security'

/** The parts of IpcMainInvokeEvent the checks read. */
export interface InvokeEventLike {
  sender: { id: number; mainFrame?: unknown }
  senderFrame: { url: string; parent: unknown } | null | undefined
}

/** The parts of ipcMain the wrapper uses (tests pass a fake with the same shape). */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>,
  ): void
  removeHandler(channel: string): void
}

export interface SenderPolicy {
  /** ids of the webContents of the app's own windows. */
  isKnownWebContents(id: number): boolean
  /** Origins the app's UI is served from (app://skill-runner; the dev server in development). */
  allowedOrigins: readonly string[]
}

/** Why a sender is refused, or null when it is the app's own window. */
export function senderProblem(event: InvokeEventLike, policy: SenderPolicy): string | null {
  if (!policy.isKnownWebContents(event.sender.id)) return 'unknown window'
  const frame = event.senderFrame
  if (!frame) return 'no frame (it navigated away or closed)'
  if (frame.parent !== null && frame.parent !== undefined) return 'a sub-frame'
  if (event.sender.mainFrame !== undefined && event.sender.mainFrame !== frame)
    return 'not the main frame'
  const origin = originOf(frame.url)
  if (origin === null || !policy.allowedOrigins.includes(origin))
    return `foreign origin ${origin ?? '(none)'}`
  return null
}

export interface RegisterBridgeOptions {
  ipc: IpcMainLike
  dispatch: Dispatch
  policy: SenderPolicy
  onRefused?: (verb: string, reason: string) => void
}

/** Registers every verb of the contract; returns a function that removes them again. */
export function registerBridge(options: RegisterBridgeOptions): () => void {
  const { ipc, dispatch, policy } = options
  for (const verb of requestNames) {
    ipc.handle(ipcRequestChannel(verb), async (event, ...args): Promise<BridgeResult<unknown>> => {
      const problem = senderProblem(event, policy)
      if (problem) {
        options.onRefused?.(verb, problem)
        return { ok: false, error: forbiddenError }
      }
      if (args.length > 1) {
        return {
          ok: false,
          error: invalidArguments({ _: 'Each request takes one argument object.' }),
        }
      }
      return dispatch(verb, args[0], { transport: 'ipc' })
    })
  }
  return () => {
    for (const verb of requestNames) ipc.removeHandler(ipcRequestChannel(verb))
  }
}

/** The parts of WebContents used to push events. */
export interface EventTarget {
  isDestroyed(): boolean
  send(channel: string, payload: unknown): void
}

/** Pushes one event to every window of the app (IPC send; the UI never polls). */
export function broadcastEvent<E extends BridgeEventName>(
  targets: Iterable<EventTarget>,
  event: E,
  payload: BridgeEvents[E],
): void {
  const channel = ipcEventChannel(event)
  for (const target of targets) {
    if (!target.isDestroyed()) target.send(channel, payload)
  }
}

/** Electron's ipcMain, loaded only inside Electron (tests never import electron). */
export async function electronIpcMain(): Promise<IpcMainLike> {
  const { ipcMain } = await import('electron')
  return ipcMain as unknown as IpcMainLike
}
