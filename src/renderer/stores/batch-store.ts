/**
 * The batch domain: one buyer's sheet across its runs (getBatch), its rows asked for a page at a
 * time as the list scrolls (getBatchRows), and the rows chosen to send. A page asked for under an
 * earlier filter or batch is dropped when it comes.
 */
import { createStore } from 'zustand/vanilla'
import type { BatchRowFilter, BatchView, BridgeApi, BridgeErrorInfo } from '../../shared/bridge'
import { errorInfo } from './errors'
import { BATCH_PAGE, batchPageLoader, pagesOf, rowAt, type BatchPages } from './batch-pages'

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
  /** Pages of rows under the filter near the view, by page number (farther ones are let go). */
  pages: BatchPages
  /** Chosen sheet rows, to send. */
  chosen: ReadonlySet<number>
  /** Where the last plain click chose, for a shift-click range (a position in the list). */
  anchor: number | null
}

export interface BatchActions {
  open(environment: string, runId: string): Promise<void>
  setFilter(filter: BatchRowFilter): Promise<void>
  /** The list shows positions first..last: ask for the pages it lacks, and the next ones. */
  showRange(first: number, last: number): Promise<void>
  /** A click on the row at `index`: its box flips; with shift, every row from the anchor takes its new state. */
  choose(index: number, range: boolean): Promise<void>
  chooseNone(): void
  /** After a send: the batch and its shown rows again (the new run's rows are pending now). */
  refresh(): Promise<void>
  close(): void
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

/** The chosen sheet rows once a click leaves `rows` chosen (`on`) or not. */
function chooseRows(chosen: ReadonlySet<number>, rows: readonly number[], on: boolean) {
  const next = new Set(chosen)
  for (const row of rows) {
    if (on) next.add(row)
    else next.delete(row)
  }
  return next
}

type Store = BatchData & BatchActions

/** The batch's pages, asked for the batch and filter the store shows. */
function storePages(api: BridgeApi, set: (partial: Partial<Store>) => void, get: () => Store) {
  return batchPageLoader({
    ask: (page) => {
      const { environment, batch, filter } = get()
      if (!batch) return null
      return api.getBatchRows({
        environment,
        batchId: batch.batchId,
        filter,
        from: page * BATCH_PAGE,
        count: BATCH_PAGE,
      })
    },
    pages: () => get().pages,
    keep: (kept, total) => set({ total, error: null, ...(kept ? { pages: kept } : {}) }),
    failed: (error) => set({ error: errorInfo(error) }),
  })
}

export function createBatchStore(api: BridgeApi) {
  return createStore<Store>()((set, get) => {
    const pages = storePages(api, set, get)
    /** Starts the rows over (a new filter or after a send), asking `shown` again. */
    const restart = async (shown: number[]) => {
      pages.forget()
      set({ pages: {}, total: -1 })
      await Promise.all(shown.map((p) => pages.load(p)))
    }
    return {
      ...EMPTY,
      async open(environment, runId) {
        const mine = pages.forget()
        set({ ...EMPTY, environment, runId, loading: true })
        try {
          const batch = await api.getBatch({ environment, runId })
          if (!pages.current(mine)) return
          set({ batch, none: batch === null, loading: false })
          if (batch) await pages.load(0, mine)
        } catch (error) {
          if (pages.current(mine)) set({ loading: false, error: errorInfo(error) })
        }
      },
      async setFilter(filter) {
        if (filter === get().filter) return
        set({ filter, anchor: null })
        await restart([0])
      },
      async showRange(first, last) {
        const { total } = get()
        const end = Math.max(0, total >= 0 ? Math.min(last, total - 1) : last)
        const start = Math.max(0, first)
        const kept = pages.view(Math.floor(start / BATCH_PAGE), Math.floor(end / BATCH_PAGE))
        if (kept) set({ pages: kept })
        // The pages in view, then one either side, so a row scrolled to is mostly there already.
        const shown = pagesOf(start, end)
        const ahead = [shown[0]! - 1, shown.at(-1)! + 1].filter(
          (p) => p >= 0 && (total < 0 || p * BATCH_PAGE < total),
        )
        const loaded = get().pages
        const missing = [...shown, ...ahead].filter((p) => !loaded[p])
        await Promise.all(missing.map((p) => pages.load(p)))
      },
      async choose(index, range) {
        const { anchor } = get()
        const clicked = rowAt(get().pages, index)
        if (!clicked) return
        const on = !get().chosen.has(clicked.sheetRow)
        const [from, to] =
          range && anchor !== null
            ? [Math.min(anchor, index), Math.max(anchor, index)]
            : [index, index]
        // A range may reach rows never seen or let go: known by their sheet rows, asked if unseen.
        const rows = from === to ? [clicked.sheetRow] : await pages.sheetRowsIn(from, to)
        set({ chosen: chooseRows(get().chosen, rows, on), anchor: index })
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
        await restart(shown.length > 0 ? shown : [0])
      },
      close() {
        pages.forget()
        set(EMPTY)
      },
    }
  })
}

export type BatchStore = ReturnType<typeof createBatchStore>
