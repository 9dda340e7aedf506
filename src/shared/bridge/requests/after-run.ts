/** After the run: a run's overview, previews, the results workbook, the history. */
import * as z from 'zod'
import type { HistoryPage, ResultsWorkbookView, ShowInFolderView } from '../views/after-run'
import type { DownloadResultView } from '../views/after-run'
import { environmentNameSchema, runIdSchema, runRef, request } from './arguments'

export const afterRunRequests = {
  /** Writes the results workbook (and saves the outputs it links to): `downloadProgress` follows. */
  saveResultsWorkbook: request<ResultsWorkbookView>()(runRef),
  /** Shows a run's saved outputs (or its results workbook) in the file manager, or says where. */
  showInFolder: request<ShowInFolderView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: runIdSchema,
      item: z.enum(['outputs', 'results', 'artifact']),
      /** With item 'artifact': which saved output. */
      artifactId: z.string().min(1).max(256).optional(),
    }),
  ),
  /** Every submission from this device, newest first, searchable offline. */
  listHistory: request<HistoryPage>()(
    z.strictObject({
      search: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
  ),
  /**
   * Saves every artifact of a run into a folder the app chooses (the desktop app asks with its
   * own folder dialog; a browser gets the Downloads folder): `downloadProgress` events follow.
   */
  downloadRun: request<DownloadResultView | null>()(
    z.strictObject({ environment: environmentNameSchema, runId: z.string().min(1).max(256) }),
  ),
}
