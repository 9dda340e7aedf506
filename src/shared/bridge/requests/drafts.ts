/**
 * The New run screen's draft: what the user chose so far, kept by the engine per environment so a
 * reload or a restart lands on the same step. A draft never holds a token, and restoring one never
 * sends anything (a sent run is kept as a link, not as something to send again).
 */
import * as z from 'zod'
import type { PrepareDraftView } from '../views/drafts'
import { environmentNameSchema, request } from './arguments'
import { prepareDraftSchema } from './draft-schema'

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
