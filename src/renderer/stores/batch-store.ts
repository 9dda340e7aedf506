/**
 * The batch domain: one buyer's sheet across its runs (getBatch), its rows asked for a page at a
 * time as the list scrolls (getBatchRows), and the rows chosen to send. A page asked for under an
 * earlier filter or batch is dropped when it comes.
 */
import { createStore } from 'zustand/vanilla'
import type {
  BatchRowFilter,
  BatchRowView,
  BatchView,
  BridgeApi,
  BridgeErrorInfo,
} from '../../shared/bridge'
import { errorInfo } from './errors'

/** Rows asked for at once: a few screens of a tall window. */
export const BATCH_PAGE = 200

export interface BatchData {
  environment: string
  /** The run the batch was opened from. */
  runId: string
  batch: BatchView | null
  /** getBatch answered null: the run was not sent from a sheet on this computer. */
  none: boolean
  loading: boolean
  error: BridgeErrorInfo | null
  filter: BatchRowFilter
  /** Rows matching the filter (-1 until the first page comes). */
  total: number
  /** Loaded pages of rows under the filter, by page number. */
  pages: Readonly<Record<number, readonly BatchRowView[]>>
  /** Chosen sheet rows, to send. */
  chosen: ReadonlySet<number>
  /** Where the last plain click chose, for a shift-click range (a position in the list). */
  anchor: number | null
}

export interface BatchActions {
  open(environment: string, runId: string): Promise<void>
  setFilter(filter: BatchRowFilter): Promise<void>
  /** The list shows positions first..last: ask for the pages it lacks. */
  showRange(first: number, last: number): Promise<void>
  /** A click on the row at `index`: its box flips; with shift, every row from the anchor takes its new state. */
  choose(index: number, range: boolean): Promise<void>
  chooseNone(): void
  /** After a send: the batch and its shown rows again (the new run's rows are pending now). */
  refresh(): Promise<void>
  close(): void
}

/** The row at a position in the filtered list, when its page is loaded. */
export function rowAt(state: Pick<BatchData, 'pages'>, index: number): BatchRowView | undefined {
  return state.pages[Math.floor(index / BATCH_PAGE)]?.[index % BATCH_PAGE]
}

const EMPTY: BatchData = {
  environment: '',
  runId: '',
  batch: null,
  none: false,
  loading: false,
  error: null,
  filter: 'all',
  total: -1,
  pages: {},
  chosen: new Set(),
  anchor: null,
}

type SetState = (partial: Partial<BatchData>) => void
type GetState = () => BatchData & BatchActions

/**
 * Pages of rows asked for the batch and filter shown. `generation` is bumped whenever what the
 * pages answer for changes (batch, filter, a refresh): a page asked before is then dropped.
 */
function pageLoader(api: BridgeApi, set: SetState, get: GetState) {
  let generation = 0
  const asking = new Set<number>()
  async function loadPage(page: number, mine = generation) {
    const { environment, batch, filter } = get()
    if (!batch || asking.has(page)) return
    asking.add(page)
    try {
      const window = await api.getBatchRows({
        environment,
        batchId: batch.batchId,
        filter,
        from: page * BATCH_PAGE,
        count: BATCH_PAGE,
      })
      if (mine !== generation) return
      set({ total: window.total, pages: { ...get().pages, [page]: window.rows }, error: null })
    } catch (error) {
      if (mine === generation) set({ error: errorInfo(error) })
    } finally {
      if (mine === generation) asking.delete(page)
    }
  }
  return {
    loadPage,
    /** Forgets every page asked so far; the new generation. */
    forget() {
      generation++
      asking.clear()
      return generation
    },
    /** Starts the rows over (a new filter or after a send), asking `pages` again. */
    async restart(pages: number[]) {
      this.forget()
      set({ pages: {}, total: -1 })
      await Promise.all(pages.map((p) => loadPage(p)))
    },
    current: (mine: number) => mine === generation,
  }
}

/** The pages that hold positions first..last. */
function pagesOf(first: number, last: number): number[] {
  const out: number[] = []
  for (let p = Math.floor(first / BATCH_PAGE); p <= Math.floor(last / BATCH_PAGE); p++) out.push(p)
  return out
}

/** Rows first..last as the click on `index` leaves them chosen (`on`: chosen, else not). */
function chooseRange(state: BatchData, from: number, to: number, on: boolean): Set<number> {
  const chosen = new Set(state.chosen)
  for (let i = from; i <= to; i++) {
    const row = rowAt(state, i)
    if (!row) continue
    if (on) chosen.add(row.sheetRow)
    else chosen.delete(row.sheetRow)
  }
  return chosen
}

export function createBatchStore(api: BridgeApi) {
  return createStore<BatchData & BatchActions>()((set, get) => {
    const pages = pageLoader(api, set, get)
    return {
      ...EMPTY,
      async open(environment, runId) {
        const mine = pages.forget()
        set({ ...EMPTY, environment, runId, loading: true })
        try {
          const batch = await api.getBatch({ environment, runId })
          if (!pages.current(mine)) return
          set({ batch, none: batch === null, loading: false })
          if (batch) await pages.loadPage(0, mine)
        } catch (error) {
          if (pages.current(mine)) set({ loading: false, error: errorInfo(error) })
        }
      },
      async setFilter(filter) {
        if (filter === get().filter) return
        set({ filter, anchor: null })
        await pages.restart([0])
      },
      async showRange(first, last) {
        const { pages: loaded, total } = get()
        const end = total >= 0 ? Math.min(last, total - 1) : last
        const missing = pagesOf(Math.max(0, first), Math.max(0, end)).filter((p) => !loaded[p])
        await Promise.all(missing.map((p) => pages.loadPage(p)))
      },
      async choose(index, range) {
        const { anchor } = get()
        const clicked = rowAt(get(), index)
        if (!clicked) return
        const on = !get().chosen.has(clicked.sheetRow)
        const [from, to] =
          range && anchor !== null
            ? [Math.min(anchor, index), Math.max(anchor, index)]
            : [index, index]
        // A range reaches rows not loaded yet: their pages first, so each is chosen by its row.
        if (from !== to) await get().showRange(from, to)
        set({ chosen: chooseRange(get(), from, to, on), anchor: index })
      },
      chooseNone: () => set({ chosen: new Set(), anchor: null }),
      async refresh() {
        const { environment, runId, pages: loaded } = get()
        const shown = Object.keys(loaded).map(Number)
        set({ chosen: new Set(), anchor: null })
        try {
          const batch = await api.getBatch({ environment, runId })
          set({ batch, none: batch === null })
        } catch (error) {
          set({ error: errorInfo(error) })
        }
        await pages.restart(shown.length > 0 ? shown : [0])
      },
      close() {
        pages.forget()
        set(EMPTY)
      },
    }
  })
}

export type BatchStore = ReturnType<typeof createBatchStore>
