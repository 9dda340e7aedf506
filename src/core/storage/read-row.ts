/**
 * SQLite hands rows back untyped. Every repository describes its rows with zod and reads them
 * through these functions, so a row that is not what the migrations made (a hand-edited or
 * damaged file) stops with a clear error instead of travelling on as a wrong value.
 */
import type * as z from 'zod'
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

function checked<T extends z.ZodType>(
  schema: T,
  row: unknown,
  context: typeof READ_ONCE | undefined,
): z.output<T> {
  const parsed = schema.safeParse(row, context)
  if (!parsed.success) throw unreadableEntry()
  return parsed.data
}

/** One row, checked against its schema. */
export function readRow<T extends z.ZodType>(schema: T, row: unknown): z.output<T> {
  return checked(schema, row, READ_ONCE)
}

/** One row or none (a `get` that found nothing). */
export function readOptionalRow<T extends z.ZodType>(schema: T, row: unknown): z.output<T> | null {
  return row === undefined || row === null ? null : readRow(schema, row)
}

/** Every row of an `all`. */
export function readRows<T extends z.ZodType>(schema: T, rows: unknown[]): z.output<T>[] {
  return rows.map((row) => checked(schema, row, undefined))
}

/** The one row `sql` selects with `params`, checked against its schema, or null when none. */
export function selectRow<T extends z.ZodType>(
  db: Db,
  schema: T,
  sql: string,
  params: unknown[],
): z.output<T> | null {
  return readOptionalRow(schema, db.prepare(sql).get(...params))
}

/** Every row `sql` selects with `params`, each checked against its schema. */
export function selectRows<T extends z.ZodType>(
  db: Db,
  schema: T,
  sql: string,
  params: unknown[],
): z.output<T>[] {
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
