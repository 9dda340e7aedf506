/** The stores of the window, created once in main.tsx and handed down by context. */
import { createContext, useContext } from 'react'
import { useStore } from 'zustand'
import type { UiBridge } from '../bridge'
import type { AppStore } from './app-store'
import type { EnvironmentsStore } from './environments-store'
import type { RunsStore } from './runs-store'
import type { RunSummariesStore } from './run-summaries-store'
import type { SavesStore } from './saves-store'
import type { NavStore } from './nav-store'
import type { PrepareStore } from './prepare/prepare-store'
import type { RunDetailStore } from './run-detail/run-detail-store'
import type { SettingsStore } from './settings-store'
import type { HistoryStore } from './history-store'
import type { CreatorStore } from './creator-store'

export interface Stores {
  bridge: UiBridge
  app: AppStore
  environments: EnvironmentsStore
  runSummaries: RunSummariesStore
  runs: RunsStore
  saves: SavesStore
  nav: NavStore
  prepare: PrepareStore
  runDetail: RunDetailStore
  settings: SettingsStore
  history: HistoryStore
  creator: CreatorStore
}

export const StoresContext = createContext<Stores | null>(null)

export function useStores(): Stores {
  const stores = useContext(StoresContext)
  if (!stores) throw new Error('useStores() needs a StoresContext provider.')
  return stores
}

type StateOf<S> = S extends { getState(): infer T } ? T : never

export function useApp<T>(selector: (state: StateOf<AppStore>) => T): T {
  return useStore(useStores().app, selector)
}
export function useEnvironments<T>(selector: (state: StateOf<EnvironmentsStore>) => T): T {
  return useStore(useStores().environments, selector)
}
export function useRuns<T>(selector: (state: StateOf<RunsStore>) => T): T {
  return useStore(useStores().runs, selector)
}
export function useRunSummaries<T>(selector: (state: StateOf<RunSummariesStore>) => T): T {
  return useStore(useStores().runSummaries, selector)
}
export function useSaves<T>(selector: (state: StateOf<SavesStore>) => T): T {
  return useStore(useStores().saves, selector)
}
export function useNav<T>(selector: (state: StateOf<NavStore>) => T): T {
  return useStore(useStores().nav, selector)
}
export function usePrepare<T>(selector: (state: StateOf<PrepareStore>) => T): T {
  return useStore(useStores().prepare, selector)
}
export function useRunDetail<T>(selector: (state: StateOf<RunDetailStore>) => T): T {
  return useStore(useStores().runDetail, selector)
}
export function useSettings<T>(selector: (state: StateOf<SettingsStore>) => T): T {
  return useStore(useStores().settings, selector)
}
export function useHistory<T>(selector: (state: StateOf<HistoryStore>) => T): T {
  return useStore(useStores().history, selector)
}
export function useCreator<T>(selector: (state: StateOf<CreatorStore>) => T): T {
  return useStore(useStores().creator, selector)
}
