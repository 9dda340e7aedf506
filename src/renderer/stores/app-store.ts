/** The app domain: what the engine says about itself, and the state of the connection to it. */
import { createStore } from 'zustand/vanilla'
import type { AppInfo, BridgeApi, BridgeErrorInfo } from '../../shared/bridge'
import type { ConnectionState } from '../bridge'
import { errorInfo } from './errors'

export interface AppData {
  info: AppInfo | null
  error: BridgeErrorInfo | null
  connection: ConnectionState
}

export interface AppActions {
  load(): Promise<void>
  setConnection(state: ConnectionState): void
}

export function createAppStore(api: BridgeApi) {
  return createStore<AppData & AppActions>()((set) => ({
    info: null,
    error: null,
    connection: 'open',
    async load() {
      try {
        set({ info: await api.getAppInfo({}), error: null })
      } catch (error) {
        set({ error: errorInfo(error) })
      }
    },
    setConnection(connection) {
      set({ connection })
    },
  }))
}

export type AppStore = ReturnType<typeof createAppStore>
