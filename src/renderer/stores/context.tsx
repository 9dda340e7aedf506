/** The stores of the window, created once in main.tsx and handed down by context. */
import { createContext, useContext } from 'react'
import { useStore } from 'zustand'
import type { UiBridge } from '../bridge'
import type { AppStore } from './app-store'
import type { EnvironmentsStore } from './environments-store'
import type { RunsStore } from './runs-store'
import type { SavesStore } from './saves-store'

export interface Stores {
  bridge: UiBridge
  app: AppStore
  environments: EnvironmentsStore
  runs: RunsStore
  saves: SavesStore
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
export function useSaves<T>(selector: (state: StateOf<SavesStore>) => T): T {
  return useStore(useStores().saves, selector)
}
