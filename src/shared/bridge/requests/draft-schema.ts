/**
 * What the New run screen's draft keeps, as a schema the Bridge checks a save against and the
 * engine reads a kept draft back with. Apart from the verbs so views can name its type.
 */
import * as z from 'zod'
import { runTargetSchema } from './arguments'

/** The steps of the New run screen, in order; 'sent' once the draft became a run. */
const draftStepSchema = z.enum(['target', 'workbook', 'files', 'send', 'sent'])
export type DraftStep = z.infer<typeof draftStepSchema>

const key = z.string().min(1).max(256)

/** The choices a draft keeps. Paths are not among them: the engine keeps the workbook itself. */
export const prepareDraftSchema = z.strictObject({
  step: draftStepSchema,
  target: runTargetSchema.nullable(),
  /** The sheet the user chose among several (null: the reader chooses). */
  sheet: key.nullable(),
  /** The column mapping the user confirmed: the sheet's header -> field key (null: not used). */
  mapping: z
    .record(z.string().max(1000), key.nullable())
    .refine((m) => Object.keys(m).length <= 2000, 'Too many columns.')
    .nullable(),
  /** Values typed for run-scoped fields, by field key. */
  runValues: z.record(key, z.string().max(10_000)),
  pilot: z.strictObject({ on: z.boolean(), rows: z.number().int().min(1).max(10_000_000) }),
  /** The run this draft became, once sent: shown after a reload instead of a send-ready screen. */
  sent: z
    .strictObject({ runId: z.string().max(256), clientRequestId: z.string().max(256) })
    .nullable(),
})
export type PrepareDraft = z.infer<typeof prepareDraftSchema>
