/**
 * The header row: which column is which of the template's fields. By the hidden mapping sheet
 * the generator writes, else by header label, else by field key (case, spaces and the required
 * marker ignored). A pure function of the header's texts, tested without any file.
 */
import type { ListingInputSchema, SchemaField } from '../../../shared/contract'
import { headerKey, plainField } from '../../../shared/input-schema'
import { columnLetter } from '../sheets'

/** What the hidden mapping sheet says: column letter -> field key, header text -> field key. */
export interface MappingSheet {
  letters: Map<string, string>
  headers: Map<string, string>
}

export interface HeaderColumns {
  /** Column index -> its field (null: a blank or unknown column). */
  columns: (SchemaField | null)[]
  /** Problems with the header, in the order a user reads them. */
  problems: string[]
}

/** Each header text's field, by the text alone (the mapping's header, label, or key). */
function matchByText(
  texts: (string | null)[],
  schema: ListingInputSchema,
  fields: Map<string, SchemaField>,
  mapping: MappingSheet,
): (SchemaField | null)[] {
  const byLabel = new Map<string, SchemaField>()
  for (const f of schema.fields) {
    const column = schema.columns.find((c) => c.fieldKey === f.key)
    byLabel.set(headerKey(column?.headerLabel || f.label || f.key), f)
    byLabel.set(headerKey(f.label || f.key), f)
  }
  const byKey = new Map([...fields.values()].map((f) => [headerKey(f.key), f]))
  return texts.map((text) => {
    if (text === null) return null
    const mappedKey = mapping.headers.get(headerKey(text))
    return (
      (mappedKey ? fields.get(mappedKey) : undefined) ??
      byLabel.get(headerKey(text)) ??
      byKey.get(headerKey(text)) ??
      null
    )
  })
}

/**
 * The columns of a header row (its cells' texts, null for a blank one). Without a schema every
 * named column is a generic field of its own.
 */
export function headerColumns(
  texts: (string | null)[],
  schema: ListingInputSchema | null,
  fields: Map<string, SchemaField>,
  mapping: MappingSheet,
): HeaderColumns {
  if (!schema)
    return {
      columns: texts.map((text) => (text === null ? null : plainField(text, text, 'generic'))),
      problems: [],
    }
  const matched = matchByText(texts, schema, fields, mapping)
  // A renamed header keeps the field the mapping gave its column, unless that field is claimed
  // by another header (then columns were inserted or moved, and the letter says nothing).
  const claimed = new Set(matched.filter((f) => f !== null).map((f) => f.key))
  texts.forEach((text, i) => {
    if (text === null || matched[i]) return
    const key = mapping.letters.get(columnLetter(i))
    const field = key ? fields.get(key) : undefined
    if (field && !claimed.has(field.key)) {
      matched[i] = field
      claimed.add(field.key)
    }
  })
  return fieldPerColumn(texts, (_, i) => matched[i] ?? 'unknown', fields, {
    unknown: (letter, text) =>
      `Column ${letter} “${text}” is not a field of this template. Remove the column or rename it to one of the template's headers.`,
    repeated: (letter, text, field) =>
      `Column ${letter} “${text}” repeats the field “${field}”. Keep one column per field.`,
    missing: (field) =>
      `The required column “${field}” is missing. Add it (use a fresh template workbook to see every column).`,
  })
}

/** How a header's problems are said (the words differ with how its columns were matched). */
export interface ColumnWords {
  unknown(letter: string, text: string): string
  repeated(letter: string, text: string, field: string): string
  missing(field: string): string
}

/**
 * Each named column's field, each field fed by one column at most, and every required field
 * of the rows fed. `fieldOf` answers a column's field, 'unknown' (said as a problem), or null
 * for a column not used (nothing to say, or said already in `problems`).
 */
export function fieldPerColumn(
  texts: readonly (string | null)[],
  fieldOf: (text: string, i: number, problems: string[]) => SchemaField | 'unknown' | null,
  fields: ReadonlyMap<string, SchemaField>,
  words: ColumnWords,
): HeaderColumns {
  const problems: string[] = []
  const used = new Set<string>()
  const columns = texts.map((text, i) => {
    if (text === null) return null
    const field = fieldOf(text, i, problems)
    if (field === 'unknown') problems.push(words.unknown(columnLetter(i), text))
    if (field === 'unknown' || field === null) return null
    if (used.has(field.key)) {
      problems.push(words.repeated(columnLetter(i), text, field.label || field.key))
      return null
    }
    used.add(field.key)
    return field
  })
  for (const f of fields.values())
    if (f.required && f.scope !== 'run' && !used.has(f.key))
      problems.push(words.missing(f.label || f.key))
  return { columns, problems }
}
