/**
 * Which of the first rows is the header, when a title or a note stands above it: the row that
 * names the most of the template's fields, else the first row about as wide as the table. Rows
 * come as the reader gives them (blank rows already left out); tested without any file.
 */
import type { ListingInputSchema } from '../../../shared/contract'
import { looseKey } from './words'

/** How many non-blank rows are looked at before the header is chosen. */
export const HEADER_LOOKAHEAD = 8

/** The index, among `rows` (each a row's cell texts, null for blank), of the header row. */
export function findHeaderRow(
  rows: readonly (readonly (string | null)[])[],
  schema: ListingInputSchema | null,
): number {
  if (rows.length <= 1) return 0
  if (schema) {
    const names = new Set(
      [
        ...schema.fields.flatMap((f) => [f.key, f.label]),
        ...schema.columns.map((c) => c.headerLabel),
      ]
        .filter(Boolean)
        .map(looseKey),
    )
    let best = -1
    let bestCount = 0
    rows.forEach((row, i) => {
      const count = row.filter((t) => t !== null && names.has(looseKey(t))).length
      if (count > bestCount) {
        best = i
        bestCount = count
      }
    })
    if (best >= 0) return best
  }
  const widths = rows.map((row) => row.filter((t) => t !== null).length)
  const widest = Math.max(...widths)
  if (widest <= 1) return 0
  const wide = Math.max(2, Math.ceil(widest * 0.6))
  const first = widths.findIndex((w) => w >= wide)
  return first < 0 ? 0 : first
}
