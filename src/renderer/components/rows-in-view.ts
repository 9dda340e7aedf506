/**
 * Which rows of a list of fixed-height rows are in its scroll area's view (with `overscan` rows
 * each side), from the scroll offset and the area's height alone: the work is the same for ten
 * rows as for a hundred thousand. (A general virtualizer measured each item's place on every
 * change of the list, an object per item: 8 ms of the 65 ms task that opened a 10,000-row run's
 * page, and more as the list grows.)
 *
 * The view is read when the area is first laid out, on each scroll (drawn at once, so a fast
 * scroll never shows a blank frame) and when the area changes size; a scroll within the same
 * rows draws nothing.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'

/** A row drawn: its position in the list (the same object while it stays in view). */
export interface RowPlace {
  index: number
}

interface View {
  top: number
  height: number
}

/** The first and last positions drawn for a view: [0, -1] when none. */
export function rowsFor(view: View, count: number, rowHeight: number, overscan: number) {
  if (count <= 0 || rowHeight <= 0) return { first: 0, last: -1 }
  const top = Math.max(0, view.top)
  const firstSeen = Math.min(count - 1, Math.floor(top / rowHeight))
  const lastSeen = Math.min(count - 1, Math.floor((top + Math.max(1, view.height) - 1) / rowHeight))
  return { first: Math.max(0, firstSeen - overscan), last: Math.min(count - 1, lastSeen + overscan) }
}

export function useRowsInView(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan: number,
): RowPlace[] {
  // The latest view, always; a drawing is asked for only when it changes the rows drawn. (Kept
  // only with those drawings, a view first read while the list was empty, or the area hidden,
  // would have kept its height of nothing once rows came.)
  const view = useRef<View>({ top: 0, height: 0 })
  const [, redraw] = useState(0)
  const sizes = useRef({ count, rowHeight, overscan })
  sizes.current = { count, rowHeight, overscan }

  useLayoutEffect(() => {
    const area = scroller.current
    if (!area) return
    let drawn = { first: -1, last: -1 }
    // The area's height is read when it is laid out and when it changes size, never on a scroll:
    // a scroll reads only its offset.
    let height = area.clientHeight
    const look = (now: boolean) => {
      view.current = { top: area.scrollTop, height }
      const { count: n, rowHeight: h, overscan: o } = sizes.current
      const rows = rowsFor(view.current, n, h, o)
      if (rows.first === drawn.first && rows.last === drawn.last) return
      drawn = rows
      if (now) flushSync(() => redraw((n) => n + 1))
      else redraw((n) => n + 1)
    }
    look(false)
    const onScroll = () => look(true)
    area.addEventListener('scroll', onScroll, { passive: true })
    const resized =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            height = area.clientHeight
            look(false)
          })
    resized?.observe(area)
    return () => {
      area.removeEventListener('scroll', onScroll)
      resized?.disconnect()
    }
  }, [scroller])

  const { first, last } = rowsFor(view.current, count, rowHeight, overscan)
  return usePlaces(first, last)
}

/** One object per position drawn, kept while the position stays drawn. */
function usePlaces(first: number, last: number): RowPlace[] {
  const kept = useRef(new Map<number, RowPlace>())
  const places: RowPlace[] = []
  const next = new Map<number, RowPlace>()
  for (let index = first; index <= last; index++) {
    const place = kept.current.get(index) ?? { index }
    places.push(place)
    next.set(index, place)
  }
  kept.current = next
  return places
}
