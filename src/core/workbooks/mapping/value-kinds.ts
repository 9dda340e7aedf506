/**
 * What a column's values look like (e-mail addresses, web addresses, dates, numbers, file
 * paths, yes/no), from a bounded sample, and how well that suits a field's type. The same
 * checks the rows get (checkCell) decide, so a column judged "dates" is one whose cells pass.
 */
import type { SchemaField } from '../../../shared/contract'
import { checkCell, CellProblem, isBlank, plainField } from '../../../shared/input-schema'

export type ValueKind =
  'email' | 'url' | 'date' | 'integer' | 'number' | 'boolean' | 'file' | 'text'

const PROBES: readonly ValueKind[] = ['email', 'url', 'integer', 'number', 'date', 'boolean']
const PROBE_FIELDS = new Map(PROBES.map((kind) => [kind, plainField('probe', 'probe', kind)]))
/** A cheap look first: checkCell is only asked about values that could be of the kind. */
const COULD_BE: Partial<Record<ValueKind, RegExp>> = {
  email: /@/,
  url: /^\s*https?:\/\//i,
  integer: /^[\s+\-\d_']+$/,
  number: /^[\s+\-\d.,_'eE]+$/,
  date: /^\s*\d{4}-\d|\d[/.]\d|[A-Za-z].*\d{4}|\d{4}.*[A-Za-z]/,
  boolean: /^\s*\S{1,5}\s*$/,
}
const PATH = /^(?:[A-Za-z]:[\\/]|\.{0,2}[\\/]|[\w .-]+[\\/])?[\w .()-]+\.[A-Za-z0-9]{2,5}$/

/** The kind most of the sample's non-blank values have (80% or more), else 'text'. */
export function valueKind(sample: readonly string[]): ValueKind | null {
  const values = sample.filter((v) => !isBlank(v))
  if (values.length === 0) return null
  const fits = (test: (value: string) => boolean) =>
    values.filter(test).length >= Math.ceil(values.length * 0.8)
  for (const kind of PROBES) {
    const field = PROBE_FIELDS.get(kind)!
    const could = COULD_BE[kind]!
    if (fits((v) => could.test(v) && !(checkCell(field, v) instanceof CellProblem))) return kind
  }
  if (fits((v) => PATH.test(v.trim()) && !/\s{2,}/.test(v))) return 'file'
  return 'text'
}

/** The kinds of value that suit a field, best first. */
function suitedKinds(field: SchemaField): readonly ValueKind[] {
  switch (field.type) {
    case 'email':
    case 'url':
    case 'date':
    case 'boolean':
      return [field.type]
    case 'integer':
      return ['integer']
    case 'number':
      return ['number', 'integer']
    case 'file':
      return ['file', 'url']
    default:
      return ['text']
  }
}

/**
 * How the values speak for the field: +1 when their kind is the one the field wants (a column
 * of e-mail addresses for an email field), -1 when they plainly cannot fill it (text for a
 * number), 0 when they say nothing (text for text, or no values).
 */
export function kindFit(kind: ValueKind | null, field: SchemaField): number {
  if (kind === null) return 0
  const suited = suitedKinds(field)
  if (suited.includes(kind)) return kind === 'text' ? 0 : 1
  // Numbers and dates are fine as text; an enum's values are text too.
  if (suited[0] === 'text') return field.type === 'enum' ? 0 : kind === 'text' ? 0 : -0.3
  return -1
}
