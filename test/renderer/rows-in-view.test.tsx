// @vitest-environment happy-dom
import { act, useRef } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import { rowsFor, useRowsInView } from '../../src/renderer/components/rows-in-view'

describe('the rows of a fixed-height list in view', () => {
  it('are the rows the view covers, with the overscan each side, within the list', () => {
    // 600 px of 60 px rows: rows 0 to 9 are seen.
    expect(rowsFor({ top: 0, height: 600 }, 100, 60, 8)).toEqual({ first: 0, last: 17 })
    // Scrolled to row 50 and a half: rows 50 to 60 are (partly) seen.
    expect(rowsFor({ top: 3030, height: 600 }, 100, 60, 8)).toEqual({ first: 42, last: 68 })
    expect(rowsFor({ top: 5400, height: 600 }, 100, 60, 8)).toEqual({ first: 82, last: 99 })
  })

  it('stays within a list shorter than the view, or empty, or scrolled past its end', () => {
    expect(rowsFor({ top: 0, height: 600 }, 3, 60, 8)).toEqual({ first: 0, last: 2 })
    expect(rowsFor({ top: 0, height: 600 }, 0, 60, 8)).toEqual({ first: 0, last: -1 })
    expect(rowsFor({ top: 99_999, height: 600 }, 10, 60, 2)).toEqual({ first: 7, last: 9 })
  })

  it('is the same arithmetic for a hundred thousand rows as for ten', () => {
    expect(rowsFor({ top: 60 * 99_990, height: 600 }, 100_000, 60, 8)).toEqual({
      first: 99_982,
      last: 99_999,
    })
  })
})

describe('a list that gets its rows after its scroll area was first read', () => {
  it('draws as many rows as the area shows once they come', async () => {
    let height = 0
    function List(props: { count: number }) {
      const area = useRef<HTMLDivElement>(null)
      const rows = useRowsInView(area, props.count, 60, 8)
      return (
        <div ref={area} id="area">
          {rows.map((r) => (
            <p key={r.index}>{r.index}</p>
          ))}
        </div>
      )
    }
    // The area's size comes from its ResizeObserver, told here when the area is shown.
    const resized: (() => void)[] = []
    const real = globalThis.ResizeObserver
    globalThis.ResizeObserver = class {
      constructor(tell: () => void) {
        resized.push(tell)
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver
    const host = document.createElement('div')
    document.body.appendChild(host)
    const root = createRoot(host)
    // First read while hidden and empty: a height of nothing.
    await act(async () => root.render(<List count={0} />))
    const area = host.querySelector('#area')!
    Object.defineProperty(area, 'clientHeight', { get: () => height })
    // Shown, still empty: the area is read again, no rows to draw yet.
    height = 600
    await act(async () => resized.forEach((tell) => tell()))
    // The rows come: the 10 the area shows, and 8 more below.
    await act(async () => root.render(<List count={100} />))
    expect(host.querySelectorAll('p')).toHaveLength(18)
    await act(async () => root.unmount())
    host.remove()
    globalThis.ResizeObserver = real
  })
})
