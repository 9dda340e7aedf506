/**
 * How a Bridge verb is declared, and the argument pieces several groups of verbs share.
 * Objects are strict: an unexpected key is refused, not ignored.
 */
import * as z from 'zod'

/** A request's argument schema, with its result type carried along for the type checker. */
export interface RequestSpec<Args extends z.ZodType, Result> {
  readonly args: Args
  /** Never set; it only carries the result type. */
  readonly result?: Result
}

/** `request<Result>()(argsSchema)` declares one verb. */
export function request<Result>() {
  return <Args extends z.ZodType>(args: Args): RequestSpec<Args, Result> => ({ args })
}

export const environmentNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the environment a name.')
  .max(64, 'Use a name of at most 64 characters.')
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'Use letters, digits, spaces, dots, dashes or underscores.')

/** A file the user dropped: by path in the desktop app, by content in a browser. */
export const fileRefSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('path'),
    path: z.string().min(1).max(4096),
    name: z.string().min(1).max(1024),
  }),
  z.strictObject({
    kind: z.literal('bytes'),
    name: z.string().min(1).max(1024),
    /** The file's content, base64. */
    base64: z.string().max(200 * 1024 * 1024),
  }),
])
export type FileRef = z.infer<typeof fileRefSchema>

export const noArgs = z.strictObject({})

/**
 * Made by the page for work it may stop before it ends (working out a cost, an upload):
 * `cancelWork` with the same id abandons it.
 */
export const workIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/)
export const idSchema = z.string().trim().min(1).max(256)
export const runIdSchema = z.string().min(1).max(256)
export const runRef = z.strictObject({ environment: environmentNameSchema, runId: runIdSchema })

/**
 * A RunTarget as the Bridge carries it: which template, or which listing at the version shown
 * (a template run's callback address is an argument of its own).
 */
export const runTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('template'), templateId: idSchema }),
  z.strictObject({ kind: z.literal('listing'), listingId: idSchema, listingVersionId: idSchema }),
])
