/**
 * Arrow keys in the workbook grid, as in a spreadsheet: from a cell, the arrows move to the cell
 * beside it, Page Up and Page Down a screenful of rows, Home and End to the row's first and last
 * cell. One cell at a time holds the focus (the others are reached only this way, tabIndex -1);
 * from the grid's own box, an arrow enters it at the first row in view. A row not rendered yet
 * (the grid is virtualized) is scrolled to, then its cell is focused once it is there.
 */
import { useCallback, type KeyboardEvent, type RefObject } from 'react'

const PAGE_ROWS = 10

interface Place {
  row: number
  /** 0: the row's number (its header cell); 1 and up: the workbook's columns. */
  column: number
}

function placeOf(target: EventTarget): Place | null {
  if (!(target instanceof HTMLElement)) return null
  const cell = target.closest<HTMLElement>('td, th')
  const row = cell?.closest<HTMLElement>('tr[data-row-position]')
  if (!cell || !row) return null
  const column = cell.tagName === 'TH' ? 0 : Number(cell.dataset.column)
  return { row: Number(row.dataset.rowPosition), column }
}

function cellAt(scroller: HTMLElement, place: Place): HTMLElement | null {
  const row = `[data-row-position="${place.row}"]`
  return scroller.querySelector<HTMLElement>(
    place.column === 0 ? `${row} th` : `${row} [data-column="${place.column}"]`,
  )
}

/** Where a key moves to from `from`, or null for a key the grid leaves alone. */
function moved(key: string, from: Place, rows: number, columns: number): Place | null {
  const clamp = (n: number, top: number) => Math.max(0, Math.min(top, n))
  const to = (row: number, column: number) => ({
    row: clamp(row, rows - 1),
    column: clamp(column, columns),
  })
  switch (key) {
    case 'ArrowUp':
      return to(from.row - 1, from.column)
    case 'ArrowDown':
      return to(from.row + 1, from.column)
    case 'ArrowLeft':
      return to(from.row, from.column - 1)
    case 'ArrowRight':
      return to(from.row, from.column + 1)
    case 'PageUp':
      return to(from.row - PAGE_ROWS, from.column)
    case 'PageDown':
      return to(from.row + PAGE_ROWS, from.column)
    case 'Home':
      return to(from.row, 0)
    case 'End':
      return to(from.row, columns)
    default:
      return null
  }
}

/** The grid's key handler; `size` is its rows, its columns and the first row in view. */
export function useGridKeys(
  scroller: RefObject<HTMLDivElement | null>,
  virtualizer: { scrollToIndex(index: number, options: { align: 'auto' }): void },
  size: [rows: number, columns: number, firstInView: number],
) {
  const [rows, columns, firstInView] = size
  return useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const box = scroller.current
      if (!box || rows === 0 || event.altKey || event.ctrlKey || event.metaKey) return
      const inBox = event.target === box
      const from = inBox ? { row: firstInView, column: 1 } : placeOf(event.target)
      const to = from && (inBox ? from : moved(event.key, from, rows, columns))
      if (!to || (inBox && !event.key.startsWith('Arrow'))) return
      event.preventDefault()
      const now = cellAt(box, to)
      if (now) return now.focus()
      virtualizer.scrollToIndex(to.row, { align: 'auto' })
      // The row comes with the next frames' render.
      let tries = 0
      const later = () => {
        const cell = cellAt(box, to)
        if (cell) cell.focus()
        else if ((tries += 1) < 10) window.setTimeout(later, 30)
      }
      window.setTimeout(later, 30)
    },
    [scroller, virtualizer, rows, columns, firstInView],
  )
}
