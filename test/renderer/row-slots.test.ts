// Which node each row of a recycling virtual table uses as the list scrolls.
import { describe, expect, it } from 'vitest'
import { assignSlots } from '../../src/renderer/components/row-slots'

const keys = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i))
const slotsOf = (slots: Map<string, number>) => [...slots.values()]

describe('row slots', () => {
  it('gives the first rows drawn a slot each, in order', () => {
    expect(slotsOf(assignSlots(new Map(), keys(0, 3)))).toEqual([0, 1, 2, 3])
  })

  it('draws a screenful of new rows into the same slots in the same order (no node moved)', () => {
    const first = assignSlots(new Map(), keys(0, 3))
    const far = assignSlots(first, keys(500, 503))
    expect(slotsOf(far)).toEqual([0, 1, 2, 3])
  })

  it('keeps the slot of a row still in view, so the focus stays on its row', () => {
    const first = assignSlots(new Map(), keys(10, 13))
    const byOne = assignSlots(first, keys(11, 14))
    expect(byOne.get('11')).toBe(first.get('11'))
    expect(byOne.get('13')).toBe(first.get('13'))
    // The row come into view takes the slot of the row gone.
    expect(byOne.get('14')).toBe(first.get('10'))
  })

  it('makes a new slot only when no slot is left', () => {
    const first = assignSlots(new Map(), keys(0, 1))
    const more = assignSlots(first, keys(0, 3))
    expect(slotsOf(more)).toEqual([0, 1, 2, 3])
    const fewer = assignSlots(more, keys(20, 21))
    expect(new Set(slotsOf(fewer)).size).toBe(2)
    expect(slotsOf(fewer)).toEqual([0, 1])
  })
})
