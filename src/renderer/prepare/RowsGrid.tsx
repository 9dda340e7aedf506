import {
  memo,
  startTransition,
  useCallback,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type RefObject,
} from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { BridgeApi, CheckedColumn, CheckedRowsView } from '../../shared/bridge'
import { useGridKeys } from './grid-keys'

const ROW_HEIGHT = 34
const PAGE = 200
/** Pages kept on either side of the rows in view; farther ones are dropped and fetched again
 * if the user comes back, so a long scroll does not pile up every row in the page's memory
 * (whose garbage collection then pauses the scroll). */
const KEEP_PAGES = 10

type Row = CheckedRowsView['rows'][number]

/**
 * The rows of a check, fetched from the engine a page at a time for the rows in view
 * (`first`..`last`); pages far from them are dropped. Rows not fetched yet are undefined.
 */
function useRowPages(
  api: Pick<BridgeApi, 'getCheckedRows'>,
  checkId: string,
  total: number,
  first: number,
  last: number,
) {
  const pages = useRef(new Map<number, Row[]>())
  const asked = useRef(new Set<number>())
  const [, setVersion] = useState(0)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    pages.current = new Map()
    asked.current = new Set()
    setFailed(false)
    setVersion((v) => v + 1)
  }, [checkId])

  const ensure = useCallback(
    (page: number) => {
      if (asked.current.has(page)) return
      asked.current.add(page)
      const forCheck = checkId
      api
        .getCheckedRows({ checkId, offset: page * PAGE, limit: PAGE })
        .then((view) => {
          if (forCheck !== checkId || !asked.current.has(page)) return
          pages.current.set(page, view.rows)
          // Filling in arrived rows may wait for a scroll frame, and yields while it renders.
          startTransition(() => setVersion((v) => v + 1))
        })
        .catch(() => {
          asked.current.delete(page)
          setFailed(true)
        })
    },
    [api, checkId],
  )

  useEffect(() => {
    if (total === 0) return
    const firstPage = Math.floor(first / PAGE)
    const lastPage = Math.floor(last / PAGE)
    for (let p = firstPage; p <= lastPage; p += 1) ensure(p)
    for (const p of asked.current) {
      if (p < firstPage - KEEP_PAGES || p > lastPage + KEEP_PAGES) {
        asked.current.delete(p)
        pages.current.delete(p)
      }
    }
  }, [first, last, total, ensure])

  const rowAt = (index: number): Row | undefined =>
    pages.current.get(Math.floor(index / PAGE))?.[index % PAGE]
  return { rowAt, failed }
}

type Focus = { rowPosition: number; column: number | null; seq: number } | null

/** Jump to a cell from the error list: scroll it into view, then give it focus. */
function useJumpToCell(
  virtualizer: { scrollToIndex(index: number, options: { align: 'center' }): void },
  scroller: RefObject<HTMLDivElement | null>,
  focus: Focus,
) {
  useEffect(() => {
    if (!focus) return
    virtualizer.scrollToIndex(focus.rowPosition, { align: 'center' })
    const id = window.setTimeout(() => {
      const selector =
        focus.column === null
          ? `[data-row-position="${focus.rowPosition}"] th`
          : `[data-row-position="${focus.rowPosition}"] [data-column="${focus.column}"]`
      scroller.current?.querySelector<HTMLElement>(selector)?.focus({ preventScroll: false })
    }, 120)
    return () => window.clearTimeout(id)
    // The virtualizer object is stable; only a new jump matters.
  }, [focus?.seq])
}

// The grid's rows sit in the normal flow below a padding as tall as the rows above them and
// carry no inline style: with a translateY of its own on every row, Chromium worked out each new
// row's style from scratch, 8 ms of a fast scroll's frame and now and then 50. Rows without
// inline styles share the styles already computed for their like.

/**
 * The workbook's rows as the user typed them, read only, bad cells marked: a virtualized table
 * (TanStack Virtual) whose rows are fetched from the engine a page at a time as they scroll into
 * view, so 100,000 rows cost no more than a screenful.
 */
export function RowsGrid(props: {
  api: Pick<BridgeApi, 'getCheckedRows'>
  checkId: string
  total: number
  columns: CheckedColumn[]
  /** The cell to show (from the error list): scrolled to, highlighted, focused. */
  focus: Focus
  /** Height of the scroll area before the page lays it out (tests without layout). */
  initialHeight?: number
}) {
  const { api, checkId, total, columns, focus } = props
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    // Scrolling renders in React's own time, not synchronously inside each scroll event.
    useFlushSync: false,
    initialRect: { width: 900, height: props.initialHeight ?? 420 },
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0
  const { rowAt, failed } = useRowPages(api, checkId, total, first, last)
  useJumpToCell(virtualizer, scroller, focus)
  const onKeyDown = useGridKeys(scroller, virtualizer, [total, columns.length, first])

  const template = `64px repeat(${Math.max(1, columns.length)}, minmax(140px, 1fr))`
  const minWidth = 64 + 160 * Math.max(1, columns.length)
  // A short workbook gets a short grid (header, rows, and room for a horizontal scroll bar).
  const fitted = ROW_HEIGHT * total + 52
  return (
    <div
      ref={scroller}
      className="grid-scroll"
      style={fitted < 420 ? { height: fitted } : undefined}
      tabIndex={0}
      role="region"
      aria-label={`Rows of the workbook, ${total.toLocaleString('en-US')} in all, scrollable`}
      onKeyDown={onKeyDown}
      data-testid="rows-grid"
    >
      <table
        className="grid-table rows-table"
        aria-rowcount={total + 1}
        style={
          {
            minWidth,
            '--grid-columns': template,
            '--row-height': `${ROW_HEIGHT}px`,
          } as CSSProperties
        }
      >
        <GridHeader columns={columns} />
        <tbody
          style={{
            height: `${virtualizer.getTotalSize()}px`,
            paddingTop: `${items[0]?.start ?? 0}px`,
          }}
        >
          {items.map((item) => (
            <GridRow
              key={item.key}
              index={item.index}
              row={rowAt(item.index)}
              columns={columns}
              focusColumn={focus?.rowPosition === item.index ? focus.column : undefined}
            />
          ))}
        </tbody>
      </table>
      {failed && (
        <p className="prep-note grid-failed" role="alert">
          Some rows could not be loaded. Check the workbook again.
        </p>
      )}
    </div>
  )
}

function GridHeader(props: { columns: CheckedColumn[] }) {
  return (
    <thead>
      <tr aria-rowindex={1}>
        <th scope="col">Row</th>
        {props.columns.map((c) => (
          <th key={c.letter} scope="col" title={c.header}>
            <span className="col-letter">{c.letter}</span> {c.label || c.header}
          </th>
        ))}
      </tr>
    </thead>
  )
}

/**
 * One row of the grid. Memoised: while scrolling, rows that stay in view keep their elements and
 * are not rendered again; only the rows that come into view are.
 */
const GridRow = memo(function GridRow(props: {
  index: number
  row: Row | undefined
  columns: CheckedColumn[]
  /** The focused cell's column when this row holds it (null: the row itself). */
  focusColumn: number | null | undefined
}) {
  const { row, columns } = props
  return (
    <tr
      aria-rowindex={props.index + 2}
      data-row-position={props.index}
      className={row && row.badColumns.length ? 'row-bad' : ''}
    >
      <th scope="row" tabIndex={-1}>
        {row ? row.rowNumber : ''}
      </th>
      {columns.map((c, i) => {
        const column = i + 1
        const bad = row?.badColumns.includes(column) ?? false
        const focused = props.focusColumn === column
        return (
          <td
            key={c.letter}
            data-column={column}
            tabIndex={-1}
            className={`${bad ? 'cell-bad' : ''} ${focused ? 'cell-focus' : ''}`}
            aria-invalid={bad || undefined}
          >
            {row ? (
              row.cells[i] || (bad ? <span className="cell-empty">(empty)</span> : '')
            ) : (
              <span className="cell-loading" aria-hidden="true" />
            )}
          </td>
        )
      })}
    </tr>
  )
})
