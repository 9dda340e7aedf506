import { Fragment, useEffect, useRef, type CSSProperties, type ReactNode } from 'react'
import { ColumnHeadings, type ColumnHeading } from './ColumnHeadings'
import { useRowSlots } from './row-slots'
import { useRowsInView, type RowPlace } from './rows-in-view'

export type { RowPlace } from './rows-in-view'

/** What a VirtualTable is given: its items, their rows and how the table reads. */
interface VirtualTableProps<T> {
  items: readonly T[]
  itemKey: (item: T) => string
  rowHeight: number
  /** The scroll area's name for screen readers, e.g. "Runs table, scrollable". */
  label: string
  tableClassName: string
  /** A shorter scroll area, for tables inside a card: as tall as its rows, up to a cap. */
  short?: boolean
  /** The columns' headings, in order. */
  columns: readonly ColumnHeading[]
  renderRow: (item: T, place: RowPlace) => ReactNode
  onEndReached?: () => void
  /** Told the positions in view (with overscan) whenever they change, to ask for their rows. */
  onRangeChange?: (first: number, last: number) => void
  endMargin?: number
  overscan?: number
  /**
   * Rows hand their DOM nodes on as they scroll (`row-slots.ts`): a row new to the view takes
   * the nodes of a row gone, so a screen of new rows is text and attributes changed in place
   * instead of elements made, styled and thrown away. The nodes stay in the rows' order, for the
   * keyboard and screen readers. For tables scrolled far at a time whose rows hold no state of
   * their own (a row's component passes to another row).
   */
  recycle?: boolean
}

/**
 * A table whose rows are virtualized: a fixed scroll area reachable by keyboard, a sticky header,
 * and only the rows in view in the page (`rows-in-view.ts`). `onEndReached` is called when the
 * last rows come within `endMargin` rows of the bottom, so a caller can ask for more. Rows have a
 * fixed height, so which are in view is arithmetic on the scroll offset: nothing is measured and
 * nothing is worked out per item of the list, however long.
 *
 * The rows drawn sit in the normal flow below a padding as tall as the rows above them, and carry
 * no inline style (their height comes from the table's `--row-height`): a `translateY` per row
 * would be a new inline style per row at every frame, which Chromium styles from scratch (on the
 * batch page, 1 to 14 ms of style a frame). Only the body's padding changes as the list scrolls.
 *
 * The scroll area sits alone in a block (`.table-frame`) and is sized without its contents
 * (`contain: strict`), so Chromium's layout of a scroll stops there: a flex item is never laid
 * out on its own, and as a card's flex item the scroll area had the whole page laid out again.
 */
export function VirtualTable<T>(props: VirtualTableProps<T>) {
  const scroller = useRef<HTMLDivElement>(null)
  const { items, itemKey, rowHeight, onEndReached, onRangeChange } = props
  const count = items.length
  const visible = useRowsInView(scroller, count, rowHeight, props.overscan ?? 8)
  const keyOf = (place: RowPlace) => {
    const item = items[place.index]
    return item === undefined ? String(place.index) : itemKey(item)
  }
  const slots = useRowSlots(visible.map(keyOf), props.recycle ?? false)
  useRangeTold(visible[0]?.index ?? -1, visible.at(-1)?.index ?? -1, count, {
    onEndReached,
    onRangeChange,
    endMargin: props.endMargin ?? 5,
  })

  return (
    <div className="table-frame">
      <div
        ref={scroller}
        {...scrollArea(props.short ?? false, count * rowHeight)}
        tabIndex={0}
        role="region"
        aria-label={props.label}
      >
        <table
          className={`grid-table virtual-table ${props.tableClassName}`}
          aria-rowcount={count + 1}
          style={{ '--row-height': `${rowHeight}px` } as CSSProperties}
        >
          <thead>
            <tr aria-rowindex={1}>
              <ColumnHeadings headings={props.columns} />
            </tr>
          </thead>
          <tbody
            style={{
              height: `${count * rowHeight}px`,
              paddingTop: `${(visible[0]?.index ?? 0) * rowHeight}px`,
            }}
          >
            {visible.map((place) => {
              const item = items[place.index]
              if (item === undefined) return null
              const key = keyOf(place)
              return (
                // The item's key (or the row's slot): a row keeps its DOM node while it scrolls.
                // Its place is the same object while it stays in view, so a memoized row given it
                // is not drawn again as the list scrolls.
                <Fragment key={slots?.get(key) ?? key}>{props.renderRow(item, place)}</Fragment>
              )
            })}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** The most a short table's scroll area grows to, in px. */
const SHORT_HEIGHT = 360

/**
 * The scroll area's class and size. A short table is as tall as its rows up to SHORT_HEIGHT;
 * once its rows alone fill that, it is given that height outright, so that its size does not
 * depend on what is inside and a scroll lays out the table alone.
 */
function scrollArea(short: boolean, rowsHeight: number) {
  if (!short) return { className: 'table-scroll' }
  if (rowsHeight >= SHORT_HEIGHT)
    return { className: 'table-scroll', style: { height: SHORT_HEIGHT } }
  return { className: 'table-scroll table-scroll-short', style: { maxHeight: SHORT_HEIGHT } }
}

/** Tells the caller which positions are in view, and when the last rows come near. */
function useRangeTold(
  first: number,
  last: number,
  count: number,
  tell: {
    onEndReached: (() => void) | undefined
    onRangeChange: ((first: number, last: number) => void) | undefined
    endMargin: number
  },
) {
  const { onEndReached, onRangeChange, endMargin } = tell
  useEffect(() => {
    if (onEndReached && count > 0 && last >= count - endMargin) onEndReached()
  }, [last, count, endMargin, onEndReached])
  useEffect(() => {
    if (onRangeChange && last >= 0) onRangeChange(first, last)
  }, [first, last, onRangeChange])
}

/** A table row at its place in a VirtualTable; extra props (data-*) go on the tr. */
export function VirtualRow(
  props: { place: RowPlace; children: ReactNode } & Record<`data-${string}`, string>,
) {
  const { place, children, ...data } = props
  return (
    <tr {...data} aria-rowindex={place.index + 2}>
      {children}
    </tr>
  )
}
