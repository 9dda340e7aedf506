/**
 * The New run screen's draft: what the user chose so far, kept by the engine per environment so a
 * reload or a restart lands on the same step. A draft never holds a token, and restoring one never
 * sends anything (a sent run is kept as a link, not as something to send again).
 */
import { z } from 'zod'
import type { PrepareDraftView } from '../views/drafts'
import { environmentNameSchema, planTargetSchema, request } from './arguments'

/** The steps of the New run screen, in order; 'sent' once the draft became a run. */
const draftStepSchema = z.enum(['target', 'workbook', 'files', 'send', 'sent'])
export type DraftStep = z.infer<typeof draftStepSchema>

const key = z.string().min(1).max(256)

/** The choices a draft keeps. Paths are not among them: the engine keeps the workbook itself. */
export const prepareDraftSchema = z.strictObject({
  step: draftStepSchema,
  target: planTargetSchema.nullable(),
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

export const draftRequests = {
  /**
   * Keeps what the New run screen holds (debounced by the page). With `checkId`, the workbook of
   * that check is kept too (the file on this computer, or a private copy of what a page sent);
   * without it, the draft has no workbook.
   */
  saveDraft: request<null>()(
    z.strictObject({
      environment: environmentNameSchema,
      draft: prepareDraftSchema,
      checkId: z.string().min(8).max(64).optional(),
    }),
  ),
  /** The draft kept for an environment, its workbook read again (null: none). Sends nothing. */
  restoreDraft: request<PrepareDraftView | null>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  /** Forgets the environment's draft and the copy of its workbook. */
  clearDraft: request<null>()(z.strictObject({ environment: environmentNameSchema })),
}
