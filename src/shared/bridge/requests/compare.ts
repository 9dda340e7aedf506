/** Compare runs: two runs of an environment side by side, and that comparison as a workbook. */
import * as z from 'zod'
import type { ComparisonView, ComparisonWorkbookView } from '../views/compare'
import { environmentNameSchema, request, runIdSchema } from './arguments'

const twoRuns = z.strictObject({
  environment: environmentNameSchema,
  runA: runIdSchema,
  runB: runIdSchema,
})

export const compareRequests = {
  /** Rows matched by their inputs; status, outputs, cost and time side by side. */
  compareRuns: request<ComparisonView>()(twoRuns),
  /** The comparison written as a workbook into the outputs folder. */
  saveComparison: request<ComparisonWorkbookView>()(twoRuns),
}
