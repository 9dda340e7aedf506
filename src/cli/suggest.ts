/**
 * "Did you mean": the nearest real command or option to a mistyped one. Edits are counted with a
 * swap of two neighbouring letters as one edit, since that is the commonest slip of the fingers.
 */

/** The number of inserts, deletes, changes and neighbour swaps that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = []
  for (let i = 0; i <= a.length; i += 1) rows.push([i, ...new Array<number>(b.length).fill(0)])
  for (let j = 0; j <= b.length; j += 1) rows[0]![j] = j
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i]!
    const above = rows[i - 1]!
    for (let j = 1; j <= b.length; j += 1) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + change)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1)
      }
    }
  }
  return rows[a.length]![b.length]!
}

/**
 * The candidates nearest to `word`, when near enough to be a slip (about one edit in three
 * letters); several only when they are equally near. Empty when nothing is close.
 */
export function closestWords(word: string, candidates: readonly string[]): string[] {
  const limit = Math.max(1, Math.floor(word.length / 3))
  let best: string[] = []
  let bestDistance = limit + 1
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = [candidate]
      bestDistance = distance
    } else if (distance === bestDistance) best.push(candidate)
  }
  return best.slice(0, 3)
}

/** "Did you mean “a”?" or "Did you mean “a” or “b”?", or '' when there is nothing to offer. */
export function didYouMean(suggestions: readonly string[], quote = true): string {
  if (suggestions.length === 0) return ''
  const shown = suggestions.map((s) => (quote ? `“${s}”` : s))
  const last = shown.pop()!
  return `Did you mean ${shown.length ? `${shown.join(', ')} or ` : ''}${last}?`
}
