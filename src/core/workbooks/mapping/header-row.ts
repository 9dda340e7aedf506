/**
 * Which of the first rows is the header, when a title or a note stands above it: the row that
 * names the most of the template's fields, else the first row of text about as wide as the
 * other rows of text. A header is text: a row whose cells are mostly numbers, dates or times is
 * a row of data, taken only when no row is mostly text. Rows come as the reader gives them
 * (blank rows already left out); tested without any file.
 */
import type { ListingInputSchema } from '../../../shared/contract'
import { looseKey } from './words'

/** How many non-blank rows are looked at before the header is chosen. */
export const HEADER_LOOKAHEAD = 8

/** A number as a sheet shows it: "12", "-3.5", "1.299,00", "1 299", "12 %", "$4.20", "€ 5". */
const NUMBER_LIKE = /^[-+(]?[$€£¥]?\s?[\d.,'\s\u00a0\u202f]*\d[\d.,'\s\u00a0\u202f]*\)?\s?[%$€£¥]?$/
/** A date, a time or both, as readers and spreadsheets write them. */
const DATE_LIKE =
  /^(\d{4}-\d{1,2}-\d{1,2}([T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?|\d{1,2}[./-]\d{1,2}([./-]\d{2,4})?( \d{1,2}:\d{2}(:\d{2})?( ?[AP]M)?)?|\d+:\d{2}(:\d{2})?(\.\d+)?( ?[AP]M)?)$/i

/** TRUE and FALSE as a reader gives them. */
const TRUE_FALSE = /^(true|false)$/i

/** Whether a cell's text is a value (a number, date, time or TRUE/FALSE) rather than words. */
function isValue(text: string): boolean {
  const t = text.trim()
  return NUMBER_LIKE.test(t) || DATE_LIKE.test(t) || TRUE_FALSE.test(t)
}

/** Whether more than half of a row's filled cells are words. */
function mostlyText(row: readonly (string | null)[]): boolean {
  const filled = row.filter((t): t is string => t !== null)
  return filled.filter((t) => !isValue(t)).length * 2 > filled.length
}

/** The first row about as wide as the widest of `candidates` (indexes into `rows`). */
function firstWide(rows: readonly (readonly (string | null)[])[], candidates: number[]): number {
  const widths = candidates.map((i) => rows[i]!.filter((t) => t !== null).length)
  const widest = Math.max(...widths)
  if (widest <= 1) return candidates[0]!
  const wide = Math.max(2, Math.ceil(widest * 0.6))
  return candidates[widths.findIndex((w) => w >= wide)]!
}

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
  // The last row looked at has no row under it to be its data.
  const text = rows.flatMap((row, i) => (i < rows.length - 1 && mostlyText(row) ? [i] : []))
  return firstWide(rows, text.length > 0 ? text : rows.map((_, i) => i))
}
