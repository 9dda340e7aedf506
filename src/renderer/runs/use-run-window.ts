/**
 * A big run's rows or outputs on its page, asked from the engine a page at a time as the list
 * scrolls (getRunRows, getRunOutputs): the page never holds the run's whole detail. When the run
 * changes (`version`), the pages in view are asked again and shown in place of the old ones as
 * they come; when what is listed changes (`listing`: another run, another filter), every page is
 * forgotten and an answer to an earlier listing is dropped. A list that only grows (`appendOnly`:
 * a run's outputs, never changed once made) asks again only its pages in view not yet full: a
 * push of a run that moves costs the page no answer, and no drawing, for outputs it already shows.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'

/** Rows asked for at once: a few screens of a tall window. */
export const RUN_PAGE = 200

export interface RunWindowAnswer<T> {
  total: number
  items: T[]
}

export interface RunWindow<T> {
  /** How many there are (-1 until the first page came). */
  total: number
  /** The item at a position, when its page came. */
  at(index: number): T | undefined
  /** The list shows positions first..last: ask for the pages it lacks. */
  showRange(first: number, last: number): void
  /** The first item of the pages come so far that `test` accepts. */
  find(test: (item: T) => boolean): T | undefined
}

interface Pages<T> {
  listing: string
  total: number
  byPage: Readonly<Record<number, readonly T[]>>
}

export function useRunWindow<T>(
  ask: (from: number, count: number) => Promise<RunWindowAnswer<T>>,
  listing: string,
  version: number,
  appendOnly = false,
): RunWindow<T> {
  const [pages, setPages] = useState<Pages<T>>({ listing, total: -1, byPage: {} })
  const asking = useRef(new Map<number, number>())
  /** Pages that came full: in a list that only grows, they never change. */
  const full = useRef(new Set<number>())
  const range = useRef({ first: 0, last: RUN_PAGE - 1 })
  const latest = useRef({ ask, listing, version })
  latest.current = { ask, listing, version }

  const load = useCallback((page: number) => {
    const { ask: askNow, listing: mine, version: at } = latest.current
    if ((asking.current.get(page) ?? -1) >= at) return
    asking.current.set(page, at)
    askNow(page * RUN_PAGE, RUN_PAGE).then(
      (answer) => {
        if (latest.current.listing !== mine) return
        if (answer.items.length === RUN_PAGE) full.current.add(page)
        setPages((now) => ({
          listing: mine,
          total: answer.total,
          byPage: { ...(now.listing === mine ? now.byPage : {}), [page]: answer.items },
        }))
      },
      // The page stays as it was; it is asked again when it comes into view once more.
      () => asking.current.delete(page),
    )
  }, [])

  const showRange = useCallback(
    (first: number, last: number) => {
      range.current = { first, last }
      for (const page of pagesOf(first, last)) load(page)
    },
    [load],
  )

  // Another listing: start over. The run changed: the pages in view again.
  useEffect(() => {
    asking.current = new Map()
    full.current = new Set()
    const { first, last } = range.current
    for (const page of pagesOf(first, last)) load(page)
  }, [listing, load])
  useEffect(() => {
    const { first, last } = range.current
    for (const page of pagesOf(first, last))
      if (!appendOnly || !full.current.has(page)) load(page)
  }, [version, load, appendOnly])

  return useMemo(() => {
    const byPage = pages.listing === listing ? pages.byPage : {}
    return {
      total: pages.listing === listing ? pages.total : -1,
      at: (index: number) => byPage[Math.floor(index / RUN_PAGE)]?.[index % RUN_PAGE],
      showRange,
      find: (test: (item: T) => boolean) => {
        for (const page of Object.values(byPage)) {
          const found = page.find(test)
          if (found) return found
        }
        return undefined
      },
    }
  }, [pages, listing, showRange])
}

/** The pages that hold positions first..last. */
function pagesOf(first: number, last: number): number[] {
  const out: number[] = []
  for (let p = Math.floor(first / RUN_PAGE); p <= Math.floor(last / RUN_PAGE); p++) out.push(p)
  return out
}
