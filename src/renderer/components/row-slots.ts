import { useLayoutEffect, useRef } from 'react'

/**
 * Which node ("slot") each row drawn uses, given the slots of the rows drawn last time: a row
 * still drawn keeps its slot, and a row new to the view takes a slot left by a row gone, in
 * the order those slots were drawn (a new slot only when none is left).
 *
 * So a screenful of new rows (a far scroll) is drawn into the same nodes in the same order,
 * text and attributes changed in place and no node moved (a moved node is styled and laid out
 * anew), while a row that stays in view (scrolled by a line, or holding the focus) keeps its
 * node: the focus never passes to another row as the list scrolls.
 */
export function assignSlots(
  previous: ReadonlyMap<string, number>,
  keys: readonly string[],
): Map<string, number> {
  const kept = new Set<number>()
  let fresh = 0
  for (const slot of previous.values()) fresh = Math.max(fresh, slot + 1)
  for (const key of keys) {
    const slot = previous.get(key)
    if (slot !== undefined) kept.add(slot)
  }
  const free = [...previous.values()].filter((slot) => !kept.has(slot))
  let nextFree = 0
  const slots = new Map<string, number>()
  for (const key of keys) {
    const slot = previous.get(key) ?? free[nextFree++] ?? fresh++
    slots.set(key, slot)
  }
  return slots
}

/** The slots of the rows drawn now (null when `on` is false), remembered once drawn. */
export function useRowSlots(keys: readonly string[], on: boolean): Map<string, number> | null {
  const drawn = useRef<ReadonlyMap<string, number>>(new Map())
  const slots = on ? assignSlots(drawn.current, keys) : null
  useLayoutEffect(() => {
    if (slots) drawn.current = slots
  })
  return slots
}
