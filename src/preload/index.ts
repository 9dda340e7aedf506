// The preload of the Skill Runner window. It runs sandboxed and exposes exactly the Bridge's
// named verbs and event subscriptions (src/shared/bridge/names.ts) plus `pathForFile`, never
// ipcRenderer itself. Listeners receive the payload only, not Electron's event object.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron'
import {
  EVENT_NAMES,
  REQUEST_NAMES,
  ipcEventChannel,
  ipcRequestChannel,
} from '../shared/bridge/names'
import { eventSubscriberName, PRELOAD_GLOBAL, type FileLike } from '../shared/bridge/preload-api'

const api: Record<string, unknown> = {}

for (const name of REQUEST_NAMES) {
  const channel = ipcRequestChannel(name)
  api[name] = (args: unknown) => ipcRenderer.invoke(channel, args)
}

for (const name of EVENT_NAMES) {
  const channel = ipcEventChannel(name)
  api[eventSubscriberName(name)] = (listener: unknown) => {
    if (typeof listener !== 'function') throw new TypeError('A listener function is required.')
    const forward = (_event: IpcRendererEvent, payload: unknown) => {
      ;(listener as (payload: unknown) => void)(payload)
    }
    ipcRenderer.on(channel, forward)
    return () => {
      ipcRenderer.removeListener(channel, forward)
    }
  }
}

api.pathForFile = (file: FileLike) => {
  try {
    return webUtils.getPathForFile(file as File)
  } catch {
    return ''
  }
}

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, Object.freeze(api))
