/**
 * SQLite hands rows back untyped. Every repository describes its rows with zod and reads them
 * through these functions, so a row that is not what the migrations made (a hand-edited or
 * damaged file) stops with a clear error instead of travelling on as a wrong value.
 */
import { EngineError } from '../errors'

/** What reading asks of a database: a statement to run (the history's Db is one). */
interface Db {
  prepare(sql: string): { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] }
}

/** What a history entry that cannot be read is told as. */
export function unreadableEntry(): EngineError {
  return new EngineError(
    'internal',
    'The history on this computer has an entry this Skill Runner cannot read.',
    'Please report this problem; the rest of the history still works.',
  )
}

/**
 * How a value read once is parsed. zod compiles a parser of its own for an object schema the
 * first time that schema parses (its "fastpass", through `new Function`): it pays off over many
 * rows, and costs a value read once more than the parse itself (a command-line validate reads a
 * few single rows and a saved schema, and compiling their parsers was a tenth of its work).
 */
export const READ_ONCE = { jitless: true } as const

/**
 * What a row is checked with: a zod schema, or one made by `columns` (flat rows of text and
 * numbers, checked without loading zod: what the command line's small validate reads).
 */
export interface RowSchema<T> {
  safeParse(
    value: unknown,
    context?: typeof READ_ONCE,
  ): { success: true; data: T } | { success: false }
}

/** What a row schema reads a row as. */
export type RowOf<S> = S extends { safeParse(...args: never[]): infer R }
  ? R extends { success: true; data: infer T }
    ? T
    : never
  : never

type ColumnType = 'text' | 'number'
type ColumnValue<C extends ColumnType> = C extends 'text' ? string : number

/**
 * A flat row's schema: each column text (a string) or a number (finite), as zod's
 * `z.object({ col: z.string() / z.number() })` reads it (other columns left out).
 */
export function columns<const C extends Record<string, ColumnType>>(
  shape: C,
): RowSchema<{ [K in keyof C]: ColumnValue<C[K]> }> {
  const entries = Object.entries(shape)
  return {
    safeParse(value) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { success: false }
      const row = value as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const [name, type] of entries) {
        const cell = row[name]
        const fits =
          type === 'text'
            ? typeof cell === 'string'
            : typeof cell === 'number' && Number.isFinite(cell)
        if (!fits) return { success: false }
        out[name] = cell
      }
      return { success: true, data: out as { [K in keyof C]: ColumnValue<C[K]> } }
    },
  }
}

function checked<S extends RowSchema<unknown>>(
  schema: S,
  row: unknown,
  context: typeof READ_ONCE | undefined,
): RowOf<S> {
  const parsed = schema.safeParse(row, context)
  if (!parsed.success) throw unreadableEntry()
  return parsed.data as RowOf<S>
}

/** One row, checked against its schema. */
export function readRow<S extends RowSchema<unknown>>(schema: S, row: unknown): RowOf<S> {
  return checked(schema, row, READ_ONCE)
}

/** One row or none (a `get` that found nothing). */
export function readOptionalRow<S extends RowSchema<unknown>>(
  schema: S,
  row: unknown,
): RowOf<S> | null {
  return row === undefined || row === null ? null : readRow(schema, row)
}

/** Every row of an `all`. */
export function readRows<S extends RowSchema<unknown>>(schema: S, rows: unknown[]): RowOf<S>[] {
  return rows.map((row) => checked(schema, row, undefined))
}

/** The one row `sql` selects with `params`, checked against its schema, or null when none. */
export function selectRow<S extends RowSchema<unknown>>(
  db: Db,
  schema: S,
  sql: string,
  params: unknown[],
): RowOf<S> | null {
  return readOptionalRow(schema, db.prepare(sql).get(...params))
}

/** Every row `sql` selects with `params`, each checked against its schema. */
export function selectRows<S extends RowSchema<unknown>>(
  db: Db,
  schema: S,
  sql: string,
  params: unknown[],
): RowOf<S>[] {
  return readRows(schema, db.prepare(sql).all(...params))
}

/** A JSON column's value, or undefined when the text is not JSON. */
export function parseJsonColumn(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A JSON column that must hold what `check` accepts. */
export function readJsonColumn<T>(text: string, check: (value: unknown) => value is T): T {
  const value = parseJsonColumn(text)
  if (!check(value)) throw unreadableEntry()
  return value
}
