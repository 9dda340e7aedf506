/**
 * One task or one output of a run's detail read without zod's walk. A big run's detail holds
 * tens of thousands of them, and a watched run's is read every few seconds: zod's parse makes
 * about eight times their size in short-lived objects each time, which piled up as garbage in
 * the engine's heap faster than it was collected. These readers build one plain object per task
 * and per output, by the same rules as the contract's schemas (resources.ts), and give up on
 * anything the schemas would not take as it is: the schema then reads that one after all
 * (run-detail-stream.ts), which names the field at fault exactly as the whole reading does. A
 * test (run-detail-stream.test.ts) holds both readings equal, so a field added to a schema and
 * not here fails it.
 */
import type { Artifact, RunTask } from '../../shared/contract'
import { UserFacingError } from '../../shared/errors'

/**
 * A value that stops the plain reading: the schema reads it instead, so it never leaves this
 * module (plainOr catches it); one that did would be a bug, and says so.
 */
class NotPlain extends UserFacingError {
  readonly category = 'internal' as const
  constructor() {
    super('A run’s detail was read by the wrong rule.', 'Report this as a bug in Skill Runner.')
  }
}
const notPlain = new NotPlain()

/** An identifier: a string that is not empty (the schemas' id()). */
function id(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value
  throw notPlain
}

/** The schemas' text(): a string, or '' for null and absent. */
function text(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return ''
  throw notPlain
}

/** A required integer (z.number().int(): a safe integer). */
function integer(value: unknown): number {
  if (Number.isSafeInteger(value)) return value as number
  throw notPlain
}

/** The schemas' int(): an integer, or 0 for null and absent. */
function count(value: unknown): number {
  if (value === null || value === undefined) return 0
  return integer(value)
}

function status(value: unknown): string {
  if (typeof value === 'string') return value
  throw notPlain
}

/** A plain object's fields; anything else (an array, a string) is not read here. */
function fields(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>
  throw notPlain
}

/** One reader per field of a resource: the type wants every field the schema has. */
type Readers<T> = { [K in keyof T]-?: (value: unknown) => T[K] }

/** Reads one object with `readers`, field by field in the schema's order, the rest dropped. */
function readerOf<T>(readers: Readers<T>): (value: unknown) => T {
  const keys = Object.keys(readers) as (keyof T & string)[]
  return (value) => {
    const given = fields(value)
    const read = {} as T
    for (const key of keys) read[key] = readers[key](given[key])
    return read
  }
}

const taskOf = readerOf<RunTask>({
  taskId: id,
  status,
  sourceRowIndex: integer,
  artifactCount: count,
  errorMessage: text,
})

const artifactOf = readerOf<Artifact>({
  artifactId: id,
  taskId: text,
  stepId: text,
  portName: text,
  sourceRowIndex: integer,
  mimeType: text,
  accessUrl: text,
  inlineText: text,
  createdAtUnix: count,
})

/** One value read by `read`, or undefined where the schema must tell (see readRunDetail). */
function plainOr<T>(read: (value: unknown) => T, value: unknown): T | undefined {
  try {
    return read(value)
  } catch (error) {
    if (error instanceof NotPlain) return undefined
    throw error
  }
}

/** One task as runTaskSchema reads it, or undefined when the schema must tell. */
export const plainTask = (value: unknown): RunTask | undefined => plainOr(taskOf, value)
/** One output as artifactSchema reads it, or undefined when the schema must tell. */
export const plainArtifact = (value: unknown): Artifact | undefined => plainOr(artifactOf, value)
