/**
 * The runs domain: the runs of the environment on screen, with the status filter. The first
 * page is asked for once; after that the engine pushes changes (runsUpdated), never polled.
 */
import { createStore } from 'zustand/vanilla'
import type { BridgeApi, RunsUpdate } from '../../shared/bridge'
import { errorInfo } from './errors'
import { mergeRuns, type RunsData } from './runs-selectors'

export interface RunsActions {
  /** Shows the runs of `environment` and follows them. */
  open(environment: string): Promise<void>
  setStatus(status: string): Promise<void>
  /** Filters the loaded runs by name, template or input file (the service has no run search). */
  setSearch(search: string): void
  loadMore(): Promise<void>
  refresh(): Promise<void>
  applyUpdate(update: RunsUpdate): void
  close(): Promise<void>
}

export type RunsState = RunsData & RunsActions

const PAGE_SIZE = 50

export function createRunsStore(api: BridgeApi) {
  return createStore<RunsState>()((set, get) => {
    let generation = 0

    async function loadFirstPage(environment: string, status: string) {
      const mine = ++generation
      set({
        environment,
        status,
        items: [],
        totalCount: 0,
        nextPageToken: '',
        loading: true,
        error: null,
      })
      try {
        const page = await api.listRuns({
          environment,
          pageSize: PAGE_SIZE,
          ...(status ? { status } : {}),
        })
        if (mine !== generation) return
        set((s) => ({
          items: mergeRuns(s.items, page.items),
          totalCount: page.totalCount,
          nextPageToken: page.nextPageToken,
          loading: false,
        }))
      } catch (error) {
        if (mine !== generation) return
        set({ loading: false, error: errorInfo(error) })
      }
    }

    return {
      environment: null,
      status: '',
      search: '',
      items: [],
      totalCount: 0,
      nextPageToken: '',
      loading: false,
      loadingMore: false,
      error: null,
      async open(environment) {
        const previous = get().environment
        if (previous && previous !== environment)
          api.unwatchRuns({ environment: previous }).catch(() => {})
        await loadFirstPage(environment, get().status)
        try {
          const update = await api.watchRuns({ environment })
          get().applyUpdate(update)
        } catch (error) {
          if (get().environment === environment) set({ error: errorInfo(error) })
        }
      },
      async setStatus(status) {
        const { environment } = get()
        if (!environment) {
          set({ status })
          return
        }
        await loadFirstPage(environment, status)
      },
      setSearch(search) {
        set({ search })
      },
      async loadMore() {
        const { environment, status, nextPageToken, loadingMore } = get()
        if (!environment || !nextPageToken || loadingMore) return
        const mine = generation
        set({ loadingMore: true })
        try {
          const page = await api.listRuns({
            environment,
            pageSize: PAGE_SIZE,
            pageToken: nextPageToken,
            ...(status ? { status } : {}),
          })
          if (mine !== generation) return
          set((s) => ({
            items: mergeRuns(s.items, page.items),
            nextPageToken: page.nextPageToken,
            loadingMore: false,
          }))
        } catch (error) {
          if (mine !== generation) return
          set({ loadingMore: false, error: errorInfo(error) })
        }
      },
      async refresh() {
        const { environment, status } = get()
        if (!environment) return
        await loadFirstPage(environment, status)
        try {
          get().applyUpdate(await api.refreshRuns({ environment }))
        } catch (error) {
          set({ error: errorInfo(error) })
        }
      },
      applyUpdate(update) {
        const { environment, status } = get()
        if (update.environment !== environment) return
        // With a filter on, only runs of that status join the list (others update in place).
        const known = new Set(get().items.map((r) => r.runId))
        const incoming = status
          ? update.items.filter((run) => known.has(run.runId) || run.status === status)
          : update.items
        set((s) => ({
          items: mergeRuns(s.items, incoming),
          totalCount: status ? s.totalCount : Math.max(update.totalCount, s.totalCount),
        }))
      },
      async close() {
        const { environment } = get()
        generation++
        if (environment) await api.unwatchRuns({ environment }).catch(() => {})
        set({ environment: null, items: [] })
      },
    }
  })
}

export type RunsStore = ReturnType<typeof createRunsStore>
