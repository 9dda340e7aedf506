/** The Usage screen: figures from the service's runs (kept for offline use), and the limit. */
import * as z from 'zod'
import type { EnvironmentList, SavedFileView, UsagePeriodRunsView, UsageView } from '../views'
import { environmentNameSchema, request } from './arguments'

export const usageRequests = {
  /**
   * The environment's usage. `fresh` reads the service's runs again (falling back to those kept,
   * said in `offline`); without it the runs kept are used and read again only when never read.
   */
  usage: request<UsageView>()(
    z.strictObject({ environment: environmentNameSchema, fresh: z.boolean().optional() }),
  ),
  /** The kept runs that ended on a day ("2026-11-28") or in a month ("2026-11"). */
  usagePeriodRuns: request<UsagePeriodRunsView>()(
    z.strictObject({
      environment: environmentNameSchema,
      period: z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/),
    }),
  ),
  /** The numbers of the last 30 days or 12 months, per template or listing, as a CSV file. */
  saveUsageCsv: request<SavedFileView | null>()(
    z.strictObject({ environment: environmentNameSchema, unit: z.enum(['day', 'month']) }),
  ),
  /** Sets the environment's monthly spending limit (null: off); answers the environments. */
  setMonthlyLimit: request<EnvironmentList>()(
    z.strictObject({
      environment: environmentNameSchema,
      limitT: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
    }),
  ),
}
