/** The batch: a buyer's sheet across its runs, its rows, and chosen rows sent again. */
import * as z from 'zod'
import type { BatchRowsView, BatchView } from '../views/batches'
import type { SubmissionPlanView } from '../views/spending'
import { environmentNameSchema, idSchema, request, runIdSchema, workIdSchema } from './arguments'

const batchFilterSchema = z.enum([
  'all',
  'not-sent',
  'set-aside',
  'failed',
  'succeeded',
  'sent-again',
  'pending',
])

export const batchRequests = {
  /** The batch a run belongs to (null: the run was not sent from a sheet on this computer). */
  getBatch: request<BatchView | null>()(
    z.strictObject({ environment: environmentNameSchema, runId: runIdSchema }),
  ),
  /** A window of a batch's sheet rows, in sheet order, filtered by state. */
  getBatchRows: request<BatchRowsView>()(
    z.strictObject({
      environment: environmentNameSchema,
      batchId: idSchema,
      filter: batchFilterSchema.optional(),
      from: z.number().int().min(0).max(10_000_000),
      count: z.number().int().min(1).max(2000),
    }),
  ),
  /**
   * Chosen sheet rows of a batch as a plan to confirm with confirmSubmission: rows never sent
   * are read from the sheet with its mapping, rows sent before go again (a redo, said as such).
   */
  planBatchRows: request<SubmissionPlanView>()(
    z.strictObject({
      environment: environmentNameSchema,
      batchId: idSchema,
      rows: z.array(z.number().int().min(1)).min(1, 'Choose at least one row.').max(100_000),
      workId: workIdSchema.optional(),
    }),
  ),
}
