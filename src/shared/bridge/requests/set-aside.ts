/** The rows set aside when a run was sent: the workbook to fix, saved where the user says. */
import * as z from 'zod'
import type { SavedFileView } from '../views/prepare'
import { environmentNameSchema, idSchema, request } from './arguments'

export const setAsideRequests = {
  /**
   * The workbook of rows set aside when a run was sent (skipInvalid), to fix and drop again:
   * saved where the user chooses (desktop) or downloaded (browser). Null when cancelled.
   */
  saveSetAsideRows: request<SavedFileView | null>()(
    z.strictObject({ environment: environmentNameSchema, runId: idSchema }),
  ),
}
