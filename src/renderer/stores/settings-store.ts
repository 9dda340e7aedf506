/**
 * The settings domain: what the engine keeps in its history database (outputs folder,
 * notifications, downloads at once, theme), loaded once and changed through the Bridge. Nothing
 * is stored in the window.
 */
import { createStore } from 'zustand/vanilla'
import type { BridgeApi, BridgeErrorInfo, RequestInput, SettingsView } from '../../shared/bridge'
import { errorInfo } from './errors'

export type SettingsPatch = RequestInput<'updateSettings'>

export interface SettingsData {
  settings: SettingsView | null
  loading: boolean
  /** The last change being written, so its control can say "Saving…". */
  saving: boolean
  error: BridgeErrorInfo | null
}

export interface SettingsActions {
  load(): Promise<void>
  /** Changes some settings; resolves true once the engine kept them. */
  update(patch: SettingsPatch): Promise<boolean>
  /** The desktop's folder picker: true once kept, null when cancelled, false on an error. */
  chooseFolder(): Promise<boolean | null>
  clearError(): void
}

export function createSettingsStore(api: BridgeApi) {
  return createStore<SettingsData & SettingsActions>()((set) => ({
    settings: null,
    loading: false,
    saving: false,
    error: null,
    async load() {
      set({ loading: true, error: null })
      try {
        set({ settings: await api.getSettings({}), loading: false })
      } catch (error) {
        set({ loading: false, error: errorInfo(error) })
      }
    },
    async update(patch) {
      set({ saving: true, error: null })
      try {
        set({ settings: await api.updateSettings(patch), saving: false })
        return true
      } catch (error) {
        set({ saving: false, error: errorInfo(error) })
        return false
      }
    },
    async chooseFolder() {
      set({ error: null })
      try {
        const settings = await api.chooseOutputsFolder({})
        if (!settings) return null
        set({ settings })
        return true
      } catch (error) {
        set({ error: errorInfo(error) })
        return false
      }
    },
    clearError: () => set({ error: null }),
  }))
}

export type SettingsStore = ReturnType<typeof createSettingsStore>

/** The theme the page should use: 'light' or 'dark' when chosen, null to follow the system. */
export function themeAttribute(settings: SettingsView | null): 'light' | 'dark' | null {
  return settings && settings.theme !== 'system' ? settings.theme : null
}
