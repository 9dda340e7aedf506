/**
 * The proposal: which of the user's columns feeds which of the template's fields, when the
 * headers are not the template's own. Each pair is scored on the header's text (exact, then
 * loosely equal, then shared words with the field's label, key, hints and examples) and on
 * what the column's values look like; pairs are then taken best first, one column per field.
 * A pure function of the header texts and a bounded sample of values.
 */
import type { ListingInputSchema, SchemaField } from '../../../shared/contract'
import { kindFit, valueKind, type ValueKind } from './value-kinds'
import { looseKey, wordOverlap, wordsOf } from './words'

export interface ProposedColumn {
  /** 0-based column index in the sheet. */
  index: number
  header: string
  /** The field it feeds, null for "not used". */
  fieldKey: string | null
  /** 0..1: 1 for the field's own header, about 0.5 when only the values speak for it. */
  confidence: number
  /** The first values under the header (at most three), as the user typed them. */
  samples: string[]
}

export interface MappingProposal {
  columns: ProposedColumn[]
  /** Required row fields no column feeds. */
  missingRequired: string[]
  /** True when a choice was close (two columns could fit one field): the user must confirm. */
  ambiguous: boolean
}

/** Below this, a column is "not used" rather than a guess. */
const THRESHOLD = 0.4
/** Two scores this close are a toss-up. */
const CLOSE = 0.08

interface FieldWords {
  field: SchemaField
  exact: Set<string>
  loose: Set<string>
  names: Set<string>
  hints: Set<string>
}

function fieldWords(schema: ListingInputSchema): FieldWords[] {
  return schema.fields.map((field) => {
    const header = schema.columns.find((c) => c.fieldKey === field.key)?.headerLabel ?? ''
    const names = [field.key, field.label, header].filter(Boolean)
    const hintText = [field.inputHint, field.businessHint, ...field.examples, ...field.enumValues]
    return {
      field,
      exact: new Set(names.map((n) => n.trim())),
      loose: new Set(names.map(looseKey)),
      names: new Set(names.flatMap(wordsOf)),
      hints: new Set(hintText.filter(Boolean).flatMap(wordsOf)),
    }
  })
}

/** How well one column fits one field, 0..1. */
function score(header: string, words: string[], kind: ValueKind | null, f: FieldWords): number {
  if (f.exact.has(header.trim())) return 1
  if (f.loose.has(looseKey(header))) return 0.95
  const fit = kindFit(kind, f.field)
  const byName = wordOverlap(words, f.names)
  const byHint = wordOverlap(words, f.hints)
  let total = 0
  if (byName > 0) total = 0.45 + 0.35 * byName + 0.05 * Math.min(byHint, 1)
  else if (byHint > 0) total = 0.3 + 0.15 * byHint
  if (fit > 0) total = total > 0 ? total + 0.1 : 0.45
  else if (fit < 0) total += 0.2 * fit
  return Math.max(0, Math.min(0.9, total))
}

/**
 * Whether column `index`'s field was a close call: another column nearly as good for the field
 * (and not clearly better placed elsewhere), or another free-ish field nearly as good here.
 */
function isTossUp(
  scores: readonly number[][],
  fieldOf: ReadonlyMap<number, number>,
  index: number,
  field: number,
): boolean {
  const mine = scores[index]![field]!
  const assigned = (column: number) => {
    const f = fieldOf.get(column)
    return f === undefined ? 0 : scores[column]![f]!
  }
  const rival = scores.some((row, other) => {
    const s = row[field] ?? 0
    return other !== index && s >= THRESHOLD && s >= mine - CLOSE && assigned(other) <= s + CLOSE
  })
  if (rival) return true
  const holder = new Map([...fieldOf].map(([column, f]) => [f, column]))
  return scores[index]!.some((s, other) => {
    if (other === field || s < THRESHOLD || s < mine - CLOSE) return false
    const by = holder.get(other)
    return by === undefined || scores[by]![other]! <= s + CLOSE
  })
}

/**
 * Proposes a field for each named column. `headers[i]` is column i's header text (null when
 * blank); `sample` holds the first data rows' cells as text, column for column.
 */
export function proposeMapping(
  headers: readonly (string | null)[],
  sample: readonly (readonly string[])[],
  schema: ListingInputSchema,
): MappingProposal {
  const fields = fieldWords(schema)
  const pairs: { column: number; field: number; score: number }[] = []
  const scores: number[][] = headers.map((header, column) => {
    if (header === null) return []
    const values = sample.map((row) => row[column] ?? '')
    const kind = valueKind(values)
    const words = wordsOf(header)
    return fields.map((f, field) => {
      const s = score(header, words, kind, f)
      if (s >= THRESHOLD) pairs.push({ column, field, score: s })
      return s
    })
  })
  pairs.sort((a, b) => b.score - a.score || a.column - b.column)
  const fieldOf = new Map<number, number>()
  const taken = new Set<number>()
  for (const p of pairs) {
    if (fieldOf.has(p.column) || taken.has(p.field)) continue
    fieldOf.set(p.column, p.field)
    taken.add(p.field)
  }
  let ambiguous = false
  const columns: ProposedColumn[] = []
  headers.forEach((header, index) => {
    if (header === null) return
    const field = fieldOf.get(index)
    const confidence = field === undefined ? 0 : scores[index]![field]!
    if (field !== undefined && confidence < 1 && isTossUp(scores, fieldOf, index, field))
      ambiguous = true
    columns.push({
      index,
      header,
      fieldKey: field === undefined ? null : fields[field]!.field.key,
      confidence: Math.round(confidence * 100) / 100,
      samples: sample.slice(0, 3).map((row) => row[index] ?? ''),
    })
  })
  const missingRequired = fields
    .filter((f, i) => f.field.required && f.field.scope !== 'run' && !taken.has(i))
    .map((f) => f.field.key)
  return { columns, missingRequired, ambiguous }
}
