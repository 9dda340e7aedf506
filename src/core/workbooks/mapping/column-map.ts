/**
 * A column mapping the user gave or confirmed: the sheet's header text -> the template's field
 * key, or null for a column that is not used. Parsed from the command line's words, keyed for
 * remembering by the sheet's set of headers, and applied to a header row.
 */
import type { ListingInputSchema, SchemaField } from '../../../shared/contract'
import { fieldPerColumn, type HeaderColumns } from '../validate/header'

export type ColumnMap = Record<string, string | null>

/** The words that mean "this column is not used". */
const NOT_USED = new Set(['', '-', 'none', 'not used'])

/**
 * `Message text=message,E-mail address=email` -> a ColumnMap (`Notes=` or `Notes=-`: not used).
 * A header holding a comma or "=" is written with a backslash before it. Throws a plain Error
 * (the caller words it) on a pair without "=".
 */
export function parseMapText(text: string): ColumnMap {
  const map: ColumnMap = {}
  const pairs = text.split(/(?<!\\),/).filter((p) => p.trim() !== '')
  for (const pair of pairs) {
    const at = pair.search(/(?<!\\)=/)
    if (at < 0) throw new Error(`“${pair.trim()}” has no “=” (write Column=fieldKey)`)
    const column = pair
      .slice(0, at)
      .replace(/\\([,=])/g, '$1')
      .trim()
    const key = pair.slice(at + 1).trim()
    map[column] = NOT_USED.has(key.toLowerCase()) ? null : key
  }
  return map
}

/** A --map-file's content: `{ "Column": "fieldKey" | null }`. Throws a plain Error otherwise. */
export function columnMapFromJson(value: unknown): ColumnMap {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('it must be a JSON object like { "Column": "fieldKey" }')
  const map: ColumnMap = {}
  for (const [column, key] of Object.entries(value)) {
    if (key !== null && typeof key !== 'string')
      throw new Error(`the value for “${column}” must be a field key or null`)
    map[column.trim()] = key === null || NOT_USED.has(key.trim().toLowerCase()) ? null : key.trim()
  }
  return map
}

/** The key a mapping is remembered under: the sheet's headers as a set (order and case kept). */
export function headersKey(headers: readonly (string | null)[]): string {
  const named = headers
    .filter((h): h is string => h !== null && h.trim() !== '')
    .map((h) => h.trim())
  return JSON.stringify([...new Set(named)].sort())
}

/** The keys of a mapping that are no field of the schema (a stale or mistyped mapping). */
export function unknownKeys(map: ColumnMap, schema: ListingInputSchema): string[] {
  const keys = new Set(schema.fields.map((f) => f.key))
  return Object.values(map).filter((k): k is string => k !== null && !keys.has(k))
}

/** The most header names a problem lists before it says how many more there are. */
const NAMES_LISTED = 20

/** "A, B, C" (and how many more past NAMES_LISTED): the sheet's headers in a problem. */
function headerList(texts: readonly (string | null)[]): string {
  const named = texts.filter((t): t is string => t !== null)
  const listed = named.slice(0, NAMES_LISTED).join(', ')
  const more = named.length - NAMES_LISTED
  return more > 0 ? `${listed} and ${more} more` : listed
}

/**
 * The columns a mapping gives a header row. Headers the mapping names take its field (or none);
 * the others keep what `matched` (the header's own matching) found, and are not used when that
 * is nothing, as the window proposes "Not used". A mapping naming a column the header row does
 * not have is a problem: it was meant for another sheet, or the name is mistyped.
 */
export function applyColumnMap(
  texts: readonly (string | null)[],
  matched: readonly (SchemaField | null)[],
  map: ColumnMap,
  fields: ReadonlyMap<string, SchemaField>,
): HeaderColumns {
  const fieldOf = (text: string, i: number, problems: string[]) => {
    if (!Object.hasOwn(map, text)) return matched[i] ?? null
    const key = map[text]!
    if (key === null) return null
    const field = fields.get(key)
    if (!field)
      problems.push(
        `The column mapping sends “${text}” to “${key}”, which is not a field of this template. Choose one of its fields or “not used”.`,
      )
    return field ?? null
  }
  const present = new Set(texts)
  const absent = Object.keys(map)
    .filter((column) => !present.has(column))
    .map(
      (column) =>
        `The column mapping names “${column}”, but the sheet has no such column. Its columns are: ${headerList(texts)}. Use one of these names exactly.`,
    )
  const result = fieldPerColumn(texts, fieldOf, fields, {
    unknown: (letter, text) =>
      `Column ${letter} “${text}” is not a field of this template. Map it to a field or mark it “not used”.`,
    repeated: (letter, text, field) =>
      `Two columns feed the field “${field}” (the second is column ${letter} “${text}”). Keep one column per field.`,
    missing: (field) =>
      `The required field “${field}” has no column. Choose the column that holds it.`,
  })
  return { ...result, problems: [...absent, ...result.problems] }
}

/** The named headers a mapping leaves out that match no field of their own: not used. */
export function leftOutColumns(
  texts: readonly (string | null)[],
  columns: readonly (SchemaField | null)[],
  map: ColumnMap,
): string[] {
  return texts.filter(
    (text, i): text is string => text !== null && !Object.hasOwn(map, text) && !columns[i],
  )
}
