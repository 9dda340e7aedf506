/**
 * Checks rows as they arrive on the wire (runRows, execute) against a template's or listing's
 * input schema. Wire values, as decided for the project: text-like types and dates are strings,
 * integer/number are numbers, boolean is a boolean, a file is an object with exactly one of
 * `inputAssetId`, `url`, `text`, and a multiValue field is an array of those.
 */
import type { InputRow, ListingInputSchema, SchemaField } from '../shared/contract'

export interface RowProblem {
  rowIndex: number
  fieldKey: string
  error: string
}

/** Most rows accepted in one request unless the sandbox is started with another (`maxRows`). */
export const MAX_ROWS = 10_000

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/
const FILE_KINDS = { inputAssetId: 'asset', url: 'url', text: 'text' } as const

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  )
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/** The problem with one (single) value of a field, or undefined when it is fine. */
function checkValue(field: SchemaField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
    case 'text':
      return typeof value === 'string' ? undefined : `expected text, got ${show(value)}`
    case 'url':
      if (typeof value !== 'string') return `expected a web address, got ${show(value)}`
      return isHttpUrl(value) ? undefined : `"${value}" is not an http(s) address`
    case 'email':
      if (typeof value !== 'string') return `expected an email address, got ${show(value)}`
      return EMAIL.test(value) ? undefined : `"${value}" is not an email address`
    case 'enum':
      if (typeof value !== 'string')
        return `expected one of ${field.enumValues.join(', ')}, got ${show(value)}`
      return field.enumValues.includes(value)
        ? undefined
        : `"${value}" is not one of ${field.enumValues.join(', ')}`
    case 'date': {
      if (typeof value !== 'string' || !DATE.test(value)) {
        return `expected a date as YYYY-MM-DD, got ${show(value)}`
      }
      const day = new Date(`${value.slice(0, 10)}T00:00:00Z`)
      return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value.slice(0, 10)
        ? `"${value}" is not a real date`
        : undefined
    }
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value)
        ? undefined
        : `expected a whole number, got ${show(value)}`
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? undefined
        : `expected a number, got ${show(value)}`
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `expected true or false, got ${show(value)}`
    case 'file':
      return checkFileValue(field, value)
    default:
      return undefined
  }
}

function checkFileValue(field: SchemaField, value: unknown): string | undefined {
  const expected = 'expected a file as {"inputAssetId"}, {"url"} or {"text"}'
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${expected}, got ${show(value)}`
  }
  const keys = Object.keys(value)
  if (keys.length !== 1 || !(keys[0]! in FILE_KINDS)) return `${expected}, got ${show(value)}`
  const key = keys[0] as keyof typeof FILE_KINDS
  const inner = (value as Record<string, unknown>)[key]
  if (typeof inner !== 'string' || inner === '') return `${key} must be a non-empty string`
  const kind = FILE_KINDS[key]
  const accepted = field.acceptedInputKinds.length
    ? field.acceptedInputKinds
    : ['asset', 'url', 'text']
  if (!accepted.includes(kind)) {
    return `a file given as ${kind} is not accepted here; use ${accepted.join(' or ')}`
  }
  if (key === 'url' && !isHttpUrl(inner)) return `"${inner}" is not an http(s) address`
  return undefined
}

/**
 * Copies run-scoped values (one value for the whole run) to every row, so a client may send them
 * in the first row only. Rows that carry a different value are reported.
 */
export function spreadRunValues(
  schema: ListingInputSchema,
  rows: InputRow[],
): { rows: InputRow[]; problems: RowProblem[] } {
  const problems: RowProblem[] = []
  const runFields = schema.fields.filter((f) => f.scope === 'run')
  if (runFields.length === 0) return { rows, problems }
  const out = rows.map((row) => ({ ...row }))
  for (const field of runFields) {
    const first = out.findIndex((row) => !isEmpty(row[field.key]))
    if (first < 0) continue
    const value = out[first]![field.key]
    const text = JSON.stringify(value)
    out.forEach((row, rowIndex) => {
      if (isEmpty(row[field.key])) row[field.key] = value
      else if (JSON.stringify(row[field.key]) !== text) {
        problems.push({
          rowIndex,
          fieldKey: field.key,
          error: `applies to the whole run, so it must be the same in every row (row ${first} has ${show(value)})`,
        })
      }
    })
  }
  return { rows: out, problems }
}

/** Every problem of the rows against the schema, in row order. */
export function checkRows(schema: ListingInputSchema, rows: InputRow[]): RowProblem[] {
  const problems: RowProblem[] = []
  const fields = new Map(schema.fields.map((f) => [f.key, f]))
  rows.forEach((row, rowIndex) => {
    for (const key of Object.keys(row)) {
      if (!fields.has(key)) {
        problems.push({ rowIndex, fieldKey: key, error: 'is not a field of this template' })
      }
    }
    for (const field of schema.fields) {
      const value = row[field.key]
      if (isEmpty(value)) {
        if (field.required) {
          problems.push({ rowIndex, fieldKey: field.key, error: 'is required but empty' })
        }
        continue
      }
      if (field.multiValue) {
        if (!Array.isArray(value)) {
          problems.push({ rowIndex, fieldKey: field.key, error: 'takes a list of values' })
          continue
        }
        value.forEach((item, i) => {
          const error = checkValue(field, item)
          if (error)
            problems.push({ rowIndex, fieldKey: field.key, error: `item ${i + 1}: ${error}` })
        })
      } else {
        const error = checkValue(field, value)
        if (error) problems.push({ rowIndex, fieldKey: field.key, error })
      }
    }
  })
  return problems
}

/** Every inputAssetId named in the rows, with where it appears. */
export function assetReferences(
  schema: ListingInputSchema,
  rows: InputRow[],
): { rowIndex: number; fieldKey: string; inputAssetId: string }[] {
  const out: { rowIndex: number; fieldKey: string; inputAssetId: string }[] = []
  const fileFields = schema.fields.filter((f) => f.type === 'file')
  rows.forEach((row, rowIndex) => {
    for (const field of fileFields) {
      const value = row[field.key]
      const items = Array.isArray(value) ? value : [value]
      for (const item of items) {
        if (typeof item === 'object' && item !== null && 'inputAssetId' in item) {
          const id = (item as { inputAssetId: unknown }).inputAssetId
          if (typeof id === 'string') out.push({ rowIndex, fieldKey: field.key, inputAssetId: id })
        }
      }
    }
  })
  return out
}

/** One line for a 400 answer: the first few problems, and how many more there are. */
export function describeProblems(listName: string, problems: RowProblem[]): string {
  const shown = problems
    .slice(0, 5)
    .map((p) => `${listName}[${p.rowIndex}].${p.fieldKey}: ${p.error}`)
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''
  return `The rows do not match the input schema: ${shown.join('; ')}${more}.`
}
