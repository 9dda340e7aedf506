/**
 * The batch page's rows, a page at a time: the pages near the view are kept as row views, and
 * every page asked for under the current filter leaves its sheet rows behind as plain numbers,
 * so a chosen range is known by sheet row even where its row views were let go. A sheet of
 * 100,000 rows thus holds a few pages of views at most, however far the list was scrolled.
 */
import type { BatchRowView, BatchRowsView } from '../../shared/bridge'

/** Rows asked for at once: a few screens of a tall window. */
export const BATCH_PAGE = 200
/** Pages kept on each side of the pages in view; farther ones are let go. */
export const PAGES_KEPT_AROUND = 2

export type BatchPages = Readonly<Record<number, readonly BatchRowView[]>>

/** The row at a position in the filtered list, when its page is kept. */
export function rowAt(pages: BatchPages, index: number): BatchRowView | undefined {
  return pages[Math.floor(index / BATCH_PAGE)]?.[index % BATCH_PAGE]
}

/** The pages that hold positions first..last. */
export function pagesOf(first: number, last: number): number[] {
  const out: number[] = []
  for (let p = Math.floor(first / BATCH_PAGE); p <= Math.floor(last / BATCH_PAGE); p++) out.push(p)
  return out
}

interface PageHost {
  /** One page of rows under what is shown now (null while there is no batch to ask about). */
  ask(page: number): Promise<BatchRowsView> | null
  /** The pages kept now. */
  pages(): BatchPages
  /** A page came: the pages to keep (null when they stay as they are) and the rows' total. */
  keep(pages: BatchPages | null, total: number): void
  failed(error: unknown): void
}

/**
 * Pages asked for the batch and filter shown. `generation` is bumped whenever what the pages
 * answer for changes (batch, filter, a refresh): a page asked before is then dropped, and the
 * sheet rows known so far are forgotten.
 */
export function batchPageLoader(host: PageHost) {
  let generation = 0
  const asking = new Map<number, Promise<void>>()
  let sheetRows = new Map<number, Int32Array>()
  /** The pages in view, as last told. */
  let view = { first: 0, last: 0 }
  const near = (page: number) =>
    page >= view.first - PAGES_KEPT_AROUND && page <= view.last + PAGES_KEPT_AROUND

  async function ask(page: number, mine: number) {
    try {
      const answer = await host.ask(page)
      if (!answer || mine !== generation) return
      sheetRows.set(
        page,
        Int32Array.from(answer.rows, (r) => r.sheetRow),
      )
      host.keep(near(page) ? { ...host.pages(), [page]: answer.rows } : null, answer.total)
    } catch (error) {
      if (mine === generation) host.failed(error)
    } finally {
      if (mine === generation) asking.delete(page)
    }
  }
  /** Asks for `page` unless it is on its way; resolves when it came. */
  function load(page: number, mine = generation): Promise<void> {
    const pending = asking.get(page)
    if (pending) return pending
    const asked = ask(page, mine)
    asking.set(page, asked)
    return asked
  }
  return {
    load,
    /** The list shows pages first..last: the pages far from them are let go. */
    view(first: number, last: number): BatchPages | null {
      view = { first, last }
      const pages = host.pages()
      const kept = Object.keys(pages)
        .map(Number)
        .filter((p) => near(p))
      if (kept.length === Object.keys(pages).length) return null
      return Object.fromEntries(kept.map((p) => [p, pages[p]!]))
    },
    /** The sheet rows at positions from..to, asking for the pages not seen yet. */
    async sheetRowsIn(from: number, to: number): Promise<number[]> {
      const mine = generation
      await Promise.all(
        pagesOf(from, to)
          .filter((p) => !sheetRows.has(p))
          .map((p) => load(p)),
      )
      if (mine !== generation) return []
      const out: number[] = []
      for (let i = from; i <= to; i++) {
        const row = sheetRows.get(Math.floor(i / BATCH_PAGE))?.[i % BATCH_PAGE]
        if (row !== undefined) out.push(row)
      }
      return out
    },
    /** Forgets every page asked so far; the new generation. */
    forget() {
      generation++
      asking.clear()
      sheetRows = new Map()
      return generation
    },
    current: (mine: number) => mine === generation,
  }
}
