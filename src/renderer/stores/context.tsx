/** The stores of the window, created once in main.tsx and handed down by context. */
import { createContext, useContext } from 'react'
import { useStore, type StoreApi } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
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
import type { BatchStore } from './batch-store'

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
  batch: BatchStore
}

export const StoresContext = createContext<Stores | null>(null)

export function useStores(): Stores {
  const stores = useContext(StoresContext)
  if (!stores) throw new Error('useStores() needs a StoresContext provider.')
  return stores
}

type StateOf<S> = S extends { getState(): infer T } ? T : never
type StoreName = Exclude<keyof Stores, 'bridge'>
type StateNamed<N extends StoreName> = StateOf<Stores[N]>

/** The store of that name, typed by its state (TypeScript cannot narrow Stores[N] itself). */
function storeNamed<N extends StoreName>(stores: Stores, name: N): StoreApi<StateNamed<N>> {
  return stores[name] as unknown as StoreApi<StateNamed<N>>
}

/** The hook that reads the named store through a selector, e.g. useRuns((s) => s.items). */
function selectorHook<N extends StoreName>(name: N) {
  return function useSelected<T>(selector: (state: StateNamed<N>) => T): T {
    return useStore<StoreApi<StateNamed<N>>, T>(storeNamed(useStores(), name), selector)
  }
}

/**
 * Several fields of the named store in one read, e.g. useFields('history', 'items', 'error'): the
 * component renders again when any of them changes, as it would with one selector per field.
 */
export function useFields<N extends StoreName, K extends keyof StateNamed<N>>(
  name: N,
  ...keys: K[]
): Pick<StateNamed<N>, K> {
  const pick = useShallow((state: StateNamed<N>) => {
    const picked = {} as Pick<StateNamed<N>, K>
    for (const key of keys) picked[key] = state[key]
    return picked
  })
  return useStore<StoreApi<StateNamed<N>>, Pick<StateNamed<N>, K>>(
    storeNamed(useStores(), name),
    pick,
  )
}

export const useApp = selectorHook('app')
export const useEnvironments = selectorHook('environments')
export const useRuns = selectorHook('runs')
export const useRunSummaries = selectorHook('runSummaries')
export const useSaves = selectorHook('saves')
export const useNav = selectorHook('nav')
export const usePrepare = selectorHook('prepare')
export const useRunDetail = selectorHook('runDetail')
export const useSettings = selectorHook('settings')
export const useCreator = selectorHook('creator')
