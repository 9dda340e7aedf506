/** The environments domain: saved environments, the one on screen, its connection check. */
import { createStore } from 'zustand/vanilla'
import type { BridgeApi, BridgeErrorInfo, EnvironmentList } from '../../shared/bridge'
import { selectedEnvironment, type EnvironmentsData } from './environments-selectors'
import { errorInfo } from './errors'

export interface NewEnvironment {
  name: string
  baseUrl: string
  token: string
  /** 'session': the engine holds the token in memory only, until it closes. */
  keeping: 'saved' | 'session'
}

export interface EnvironmentsActions {
  load(): Promise<void>
  select(name: string): void
  apply(list: EnvironmentList): void
  /** Resolves to null on success, or the error (with field messages) to show in the form. */
  add(input: NewEnvironment): Promise<BridgeErrorInfo | null>
  remove(name: string): Promise<BridgeErrorInfo | null>
  makeDefault(name: string): Promise<BridgeErrorInfo | null>
  check(name: string): Promise<void>
  /** Gives an environment a new token; its earlier connection check is forgotten. */
  setToken(
    name: string,
    token: string,
    keeping: 'saved' | 'session',
  ): Promise<BridgeErrorInfo | null>
}

export type EnvironmentsState = EnvironmentsData &
  EnvironmentsActions & {
    /** Grows each time a token is given: what was read with the old one is read again. */
    tokenVersion: number
  }

/** Asks whether the service is there and the token accepted, and keeps the answer by name. */
async function checkConnection(
  api: BridgeApi,
  set: (change: (s: EnvironmentsState) => Partial<EnvironmentsState>) => void,
  name: string,
) {
  set((s) => ({ checks: { ...s.checks, [name]: { running: true, report: null, error: null } } }))
  try {
    const report = await api.checkConnection({ environment: name })
    set((s) => ({ checks: { ...s.checks, [name]: { running: false, report, error: null } } }))
  } catch (error) {
    set((s) => ({
      checks: { ...s.checks, [name]: { running: false, report: null, error: errorInfo(error) } },
    }))
  }
}

export function createEnvironmentsStore(api: BridgeApi) {
  return createStore<EnvironmentsState>()((set, get) => {
    const run = async (task: () => Promise<EnvironmentList>): Promise<BridgeErrorInfo | null> => {
      try {
        get().apply(await task())
        return null
      } catch (error) {
        return errorInfo(error)
      }
    }
    return {
      items: [],
      selected: null,
      loading: false,
      error: null,
      checks: {},
      tokenVersion: 0,
      async load() {
        set({ loading: true, error: null })
        try {
          const list = await api.listEnvironments({})
          set({ loading: false })
          get().apply(list)
        } catch (error) {
          set({ loading: false, error: errorInfo(error) })
        }
      },
      select(name) {
        set({ selected: name })
      },
      apply(list) {
        const next = { items: list.items, selected: get().selected }
        // Keep the selection when it still exists; otherwise fall back to the default.
        set({ items: list.items, selected: selectedEnvironment(next)?.name ?? null })
      },
      async add(input) {
        const token = input.token.trim()
        const result = await run(() =>
          api.addEnvironment({
            name: input.name,
            baseUrl: input.baseUrl,
            ...(token ? { token, keeping: input.keeping } : {}),
          }),
        )
        if (result === null) set({ selected: input.name.trim() })
        return result
      },
      async setToken(name, token, keeping) {
        const result = await run(() => api.setToken({ name, token, keeping }))
        if (result === null) {
          set((s) => {
            const { [name]: _old, ...checks } = s.checks
            return { checks, tokenVersion: s.tokenVersion + 1 }
          })
        }
        return result
      },
      remove(name) {
        return run(() => api.removeEnvironment({ name }))
      },
      makeDefault(name) {
        return run(() => api.useEnvironment({ name }))
      },
      check: (name) => checkConnection(api, set, name),
    }
  })
}

export type EnvironmentsStore = ReturnType<typeof createEnvironmentsStore>
