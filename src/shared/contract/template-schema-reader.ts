/**
 * A template's schema read as `officialTemplateSchemaSchema` (resources.ts) reads it, written by
 * hand so that reading a saved copy loads no zod: the command line's small validate reads one and
 * nothing else of the contract, and loading zod and making its schemas was a quarter of its start.
 * The same values pass and come out the same (test/shared/template-schema-reader.test.ts compares
 * the two on every field, each replaced by values of every kind); keep the two in step.
 */
import type { OfficialTemplateSchema, SchemaColumn, SchemaField } from './resources'

/** Thrown inside the reader at the first value that does not fit; never leaves this module. */
class Misfit extends Error {}

function fail(): never {
  throw new Misfit()
}

type Fields = Record<string, unknown>

function object(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : fail()
}

/** `z.string()`, and `.min(1)` when `nonEmpty`. */
function string(value: unknown, nonEmpty = false): string {
  return typeof value === 'string' && (!nonEmpty || value.length > 0) ? value : fail()
}

/** A string the server may omit or send as null; read as '' (the contract's `text()`). */
function text(value: unknown): string {
  return value === undefined || value === null ? '' : string(value)
}

/** An integer the server may omit or send as null; read as 0 (the contract's `int()`). */
function int(value: unknown): number {
  if (value === undefined || value === null) return 0
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : fail()
}

/** A boolean the server may omit or send as null; read as false. */
function flag(value: unknown): boolean {
  if (value === undefined || value === null) return false
  return typeof value === 'boolean' ? value : fail()
}

/** A list the server may omit or send as null; read as [] (the contract's `list()`). */
function list<T>(value: unknown, item: (value: unknown) => T): T[] {
  if (value === undefined || value === null) return []
  return Array.isArray(value) ? value.map((v) => item(v)) : fail()
}

function column(value: unknown): SchemaColumn {
  const c = object(value)
  return {
    fieldKey: string(c.fieldKey, true),
    headerLabel: text(c.headerLabel),
    order: int(c.order),
  }
}

function field(value: unknown): SchemaField {
  const f = object(value)
  const scope = f.scope === undefined || f.scope === null ? '' : string(f.scope)
  return {
    key: string(f.key, true),
    label: text(f.label),
    type: string(f.type, true),
    scope: scope || 'row',
    required: flag(f.required),
    multiValue: flag(f.multiValue),
    acceptedInputKinds: list(f.acceptedInputKinds, (v) => string(v)),
    acceptedMimeTypes: list(f.acceptedMimeTypes, (v) => string(v)),
    enumValues: list(f.enumValues, (v) => string(v)),
    examples: list(f.examples, (v) => string(v)),
    inputHint: text(f.inputHint),
    businessHint: text(f.businessHint),
  }
}

/** `z.record(z.string(), z.unknown())`: a fresh object of the same keys (no `__proto__`). */
function sampleValues(value: unknown): Record<string, unknown> {
  const values = object(value)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(values)) if (key !== '__proto__') out[key] = values[key]
  return out
}

/** The schema, or null when the value is not one. */
export function readTemplateSchema(value: unknown): OfficialTemplateSchema | null {
  try {
    const s = object(value)
    return {
      templateId: string(s.templateId, true),
      name: text(s.name),
      description: text(s.description),
      scenario: text(s.scenario),
      version: text(s.version),
      inputSummary: text(s.inputSummary),
      outputType: text(s.outputType),
      instructions: list(s.instructions, (v) => string(v)),
      columns: list(s.columns, column),
      fields: list(s.fields, field),
      sampleRows: list(s.sampleRows, (row) => ({ values: sampleValues(object(row).values) })),
    }
  } catch (error) {
    if (error instanceof Misfit) return null
    throw error
  }
}
