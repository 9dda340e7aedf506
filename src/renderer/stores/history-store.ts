/**
 * The history domain: every submission from this device, searched in the engine's history
 * database (offline). More entries are asked for as the list is scrolled.
 */
import { createStore } from 'zustand/vanilla'
import type { BridgeApi, BridgeErrorInfo, HistoryEntryView } from '../../shared/bridge'
import { errorInfo } from './errors'

export const HISTORY_PAGE = 100

export interface HistoryData {
  search: string
  items: HistoryEntryView[]
  /** How many entries are asked for (grows by a page as the user scrolls). */
  limit: number
  more: boolean
  loading: boolean
  loaded: boolean
  error: BridgeErrorInfo | null
  /** Each listed batch's summary by environment and batch id ('' while asked or unknown). */
  batchSummaries: Readonly<Record<string, string>>
}

export interface HistoryActions {
  load(): Promise<void>
  setSearch(search: string): Promise<void>
  loadMore(): Promise<void>
  /** Asks a batch's summary once (by one of its runs) for its head row. */
  askBatchSummary(environment: string, runId: string, batchId: string): Promise<void>
}

export const batchSummaryKey = (environment: string, batchId: string) =>
  `${environment}\n${batchId}`

export function createHistoryStore(api: BridgeApi) {
  return createStore<HistoryData & HistoryActions>()((set, get) => {
    let generation = 0
    async function fetchPage(limit: number) {
      const mine = ++generation
      set({ loading: true, error: null, limit })
      try {
        const search = get().search.trim()
        const page = await api.listHistory({ limit, ...(search ? { search } : {}) })
        if (mine !== generation) return
        set({ items: page.items, more: page.more, loading: false, loaded: true })
      } catch (error) {
        if (mine !== generation) return
        set({ loading: false, error: errorInfo(error) })
      }
    }
    return {
      search: '',
      items: [],
      limit: HISTORY_PAGE,
      more: false,
      loading: false,
      loaded: false,
      error: null,
      batchSummaries: {},
      load() {
        set({ batchSummaries: {} })
        return fetchPage(get().limit)
      },
      async setSearch(search) {
        set({ search })
        await fetchPage(HISTORY_PAGE)
      },
      async loadMore() {
        const { more, loading, limit } = get()
        if (!more || loading) return
        await fetchPage(Math.min(1000, limit + HISTORY_PAGE))
      },
      async askBatchSummary(environment, runId, batchId) {
        const key = batchSummaryKey(environment, batchId)
        if (key in get().batchSummaries) return
        set({ batchSummaries: { ...get().batchSummaries, [key]: '' } })
        const batch = await api.getBatch({ environment, runId }).catch(() => null)
        if (batch) set({ batchSummaries: { ...get().batchSummaries, [key]: batch.summary } })
      },
    }
  })
}

export type HistoryStore = ReturnType<typeof createHistoryStore>
