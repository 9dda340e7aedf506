/**
 * The runs domain: the runs of the environment on screen, with the status filter. The first
 * page is asked for once; after that the engine pushes changes (runsUpdated), never polled.
 * The list holds the summaries of the shared cache (run-summaries-store), so a run's news that
 * reaches the open run's detail shows in the list too.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { BridgeApi, RunsReachability, RunsUpdate } from '../../shared/bridge'
import type { RunSummary } from '../../shared/contract'
import { errorInfo } from './errors'
import { newestOf, type RunSummariesStore } from './run-summaries-store'
import type { SavesStore } from './saves-store'
import { newestFirst, mergeRuns, serviceStatus, type RunsData } from './runs-selectors'

export interface RunsActions {
  /** Shows the runs of `environment` and follows them. */
  open(environment: string): Promise<void>
  setStatus(status: string): Promise<void>
  /** Filters the loaded runs by name, template or input file (the service has no run search). */
  setSearch(search: string): void
  loadMore(): Promise<void>
  refresh(): Promise<void>
  applyUpdate(update: RunsUpdate): void
  applyReachability(update: RunsReachability): void
  close(): Promise<void>
}

export type RunsState = RunsData & RunsActions

const PAGE_SIZE = 50

interface RunsContext {
  set: StoreApi<RunsState>['setState']
  get: StoreApi<RunsState>['getState']
  api: BridgeApi
  summaries: RunSummariesStore
  /** Told which listed runs have their outputs saved here. */
  saves: SavesStore
  /** Counts first-page loads: a page asked for before the latest one is dropped. */
  generation: number
}

/** Puts `runs` in the shared cache and gives them back as the cache has them. */
function cached(ctx: RunsContext, environment: string, runs: RunSummary[]): RunSummary[] {
  ctx.summaries.getState().put(environment, runs)
  return newestOf(ctx.summaries.getState(), environment, runs)
}

async function listPage(ctx: RunsContext, environment: string, status: string, pageToken?: string) {
  const page = await ctx.api.listRuns({
    environment,
    pageSize: PAGE_SIZE,
    ...(pageToken ? { pageToken } : {}),
    ...(serviceStatus(status) ? { status: serviceStatus(status) } : {}),
  })
  if (page.saved) ctx.saves.getState().knowSaved(page.saved)
  return page
}

/** How often the engine asks an unreachable service again, until it says otherwise. */
const RETRY_MS = 30_000

/**
 * A failure to read runs. When the service cannot be reached the runs already shown stay, as last
 * seen, under a banner (the engine keeps asking and says when it answers); other errors show.
 */
function failed(ctx: RunsContext, error: unknown) {
  const info = errorInfo(error)
  // Nothing to keep showing: the error itself says what happened and offers to try again.
  if (info.code !== 'unreachable' || ctx.get().items.length === 0) return ctx.set({ error: info })
  ctx.set((s) => ({ unreachable: s.unreachable ?? { sinceMs: Date.now(), retryMs: RETRY_MS } }))
}

/**
 * Asks for the first page. `keep` (a Refresh) leaves the runs shown until the answer comes, so
 * a failed look never empties the list.
 */
async function loadFirstPage(ctx: RunsContext, environment: string, status: string, keep = false) {
  const { set } = ctx
  const mine = ++ctx.generation
  set({
    environment,
    status,
    ...(keep ? {} : { items: [], totalCount: 0, nextPageToken: '', unreachable: null }),
    loading: !keep,
    error: null,
  })
  try {
    const page = await listPage(ctx, environment, status)
    if (mine !== ctx.generation) return
    const items = cached(ctx, environment, page.items)
    set((s) => ({
      // A Refresh shows the page as it is now: runs gone from it are not kept.
      items: keep ? mergeRuns([], items) : mergeRuns(s.items, items),
      totalCount: page.totalCount,
      nextPageToken: page.nextPageToken,
      loading: false,
      unreachable: null,
    }))
  } catch (error) {
    if (mine !== ctx.generation) return
    set({ loading: false })
    failed(ctx, error)
  }
}

/** Opening, filtering and paging: the verbs that ask the engine for runs. */
function pagingActions(ctx: RunsContext) {
  const { set, get, api } = ctx
  return {
    async open(environment: string) {
      const previous = get().environment
      if (previous && previous !== environment)
        api.unwatchRuns({ environment: previous }).catch(() => {})
      // Back to the same runs (the screen shown again): keep them on screen until the answer.
      await loadFirstPage(ctx, environment, get().status, previous === environment)
      try {
        get().applyUpdate(await api.watchRuns({ environment }))
      } catch (error) {
        if (get().environment === environment && !get().unreachable) failed(ctx, error)
      }
    },
    async setStatus(status: string) {
      const { environment } = get()
      if (!environment) set({ status })
      else await loadFirstPage(ctx, environment, status)
    },
    async loadMore() {
      const { environment, status, nextPageToken, loadingMore } = get()
      if (!environment || !nextPageToken || loadingMore) return
      const mine = ctx.generation
      set({ loadingMore: true })
      try {
        const page = await listPage(ctx, environment, status, nextPageToken)
        if (mine !== ctx.generation) return
        const items = cached(ctx, environment, page.items)
        set((s) => ({
          items: mergeRuns(s.items, items),
          nextPageToken: page.nextPageToken,
          loadingMore: false,
        }))
      } catch (error) {
        if (mine !== ctx.generation) return
        set({ loadingMore: false, error: errorInfo(error) })
      }
    },
    async refresh() {
      const { environment, status } = get()
      if (!environment) return
      await loadFirstPage(ctx, environment, status, true)
      try {
        get().applyUpdate(await api.refreshRuns({ environment }))
      } catch (error) {
        if (!get().unreachable) failed(ctx, error)
      }
    },
    async close() {
      const { environment } = get()
      ctx.generation++
      if (environment) await api.unwatchRuns({ environment }).catch(() => {})
      set({ environment: null, items: [] })
    },
  }
}

function applyUpdate(ctx: RunsContext, update: RunsUpdate) {
  const { set, get } = ctx
  // Every summary goes to the cache (an open run may be one the filter hides here).
  const items = cached(ctx, update.environment, update.items)
  const { environment, status } = get()
  if (update.environment !== environment) return
  // With a filter on, only runs of that status join the list (others update in place).
  const known = new Set(get().items.map((r) => r.runId))
  const incoming = serviceStatus(status)
    ? items.filter((run) => known.has(run.runId) || run.status === status)
    : items
  set((s) => ({
    items: mergeRuns(s.items, incoming),
    totalCount: serviceStatus(status) ? s.totalCount : Math.max(update.totalCount, s.totalCount),
  }))
}

/** Keeps the listed runs the cache's: a summary the run detail received replaces the listed one. */
function followCache(store: StoreApi<RunsState>, summaries: RunSummariesStore) {
  summaries.subscribe((now, before) => {
    const { environment, items } = store.getState()
    if (!environment) return
    const known = now.byEnvironment[environment]
    const was = before.byEnvironment[environment]
    if (!known || known === was) return
    // Usually one put of a few runs: only they are looked up, not every layer for every run.
    const news = known.newsOver(was) ?? known
    let changed = false
    const next = items.map((run) => {
      const newest = news.get(run.runId)
      if (!newest || newest === run) return run
      changed = true
      return newest
    })
    if (changed) store.setState({ items: next.sort(newestFirst) })
  })
}

export function createRunsStore(api: BridgeApi, summaries: RunSummariesStore, saves: SavesStore) {
  const store = createStore<RunsState>()((set, get) => {
    const ctx: RunsContext = { set, get, api, summaries, saves, generation: 0 }
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
      unreachable: null,
      ...pagingActions(ctx),
      setSearch(search: string) {
        set({ search })
      },
      applyUpdate: (update: RunsUpdate) => applyUpdate(ctx, update),
      applyReachability(update: RunsReachability) {
        if (update.environment !== get().environment) return
        const since = update.unreachableSinceMs
        set((s) => ({
          unreachable: since === null ? null : { sinceMs: since, retryMs: update.retryMs },
          // Back: an earlier "cannot reach" error is over too.
          error: since === null && s.error?.code === 'unreachable' ? null : s.error,
        }))
      },
    }
  })
  followCache(store, summaries)
  return store
}

export type RunsStore = ReturnType<typeof createRunsStore>
