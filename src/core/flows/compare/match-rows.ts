/**
 * Which row of one run goes with which row of the other. Rows are matched by what was sent (the
 * same cells), in order when the same inputs were sent more than once; rows whose inputs are not
 * known here (a run not sent from this computer) or found no twin are then matched by their
 * position; what is left stands alone.
 */
export interface RowSide {
  /** The row's position in its run (the task's sourceRowIndex). */
  index: number
  /** The row's input values, or null when this computer does not know them. */
  inputs: Record<string, unknown> | null
}

export interface RowPair<T extends RowSide> {
  a: T | null
  b: T | null
  matchedBy: 'inputs' | 'position' | 'alone'
}

/** The same cells give the same key, whatever order the fields were written in. */
export function inputKey(inputs: Record<string, unknown>): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
          )
        : value
  return JSON.stringify(sorted(inputs))
}

export function matchRows<T extends RowSide>(a: T[], b: T[]): RowPair<T>[] {
  const pairs: RowPair<T>[] = []
  const waiting = new Map<string, T[]>()
  for (const row of b) {
    if (!row.inputs) continue
    const key = inputKey(row.inputs)
    waiting.set(key, [...(waiting.get(key) ?? []), row])
  }
  const pairedB = new Set<T>()
  const leftA: T[] = []
  for (const row of a) {
    const twin = row.inputs ? waiting.get(inputKey(row.inputs))?.shift() : undefined
    if (twin) {
      pairs.push({ a: row, b: twin, matchedBy: 'inputs' })
      pairedB.add(twin)
    } else leftA.push(row)
  }
  const leftB = new Map(b.filter((row) => !pairedB.has(row)).map((row) => [row.index, row]))
  for (const row of leftA) {
    const same = leftB.get(row.index)
    // Two rows both with known, different inputs are different rows, not a change.
    if (same && !(row.inputs && same.inputs)) {
      pairs.push({ a: row, b: same, matchedBy: 'position' })
      leftB.delete(row.index)
    } else pairs.push({ a: row, b: null, matchedBy: 'alone' })
  }
  for (const row of leftB.values()) pairs.push({ a: null, b: row, matchedBy: 'alone' })
  return pairs
}
