/** Redo rows: chosen rows of a run made on this device sent again, as a plan to confirm. */
import * as z from 'zod'
import type { RowVersionsView } from '../views/redo'
import type { SubmissionPlanView } from '../views/spending'
import { environmentNameSchema, request, runIdSchema, runRef } from './arguments'

export const redoRequests = {
  /** The named rows (sheet rows, or submitted positions) as a plan: confirm it with confirmSubmission. */
  planRedo: request<SubmissionPlanView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: runIdSchema,
      rows: z.array(z.number().int().min(1)).min(1, 'Name at least one row.').max(100_000),
    }),
  ),
  /** Each row of the run that was sent again (redo or retry), with its versions and the kept one. */
  rowVersions: request<RowVersionsView>()(runRef),
  /** Keeps one version of a re-sent row (its place among the row's versions); the run's rows again. */
  keepRowVersion: request<RowVersionsView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: runIdSchema,
      /** The row's index in the run (RowVersionsView's `index`). */
      index: z.number().int().min(0),
      /** 0 is the row as this run sent it; 1 the first time it was sent again... */
      version: z.number().int().min(0),
    }),
  ),
}
