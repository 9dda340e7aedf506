/** After the run (issue 11): a run's overview, previews, the results workbook, the history. */
import { z } from 'zod'
import type {
  ArtifactPreviewView,
  HistoryPage,
  ResultsWorkbookView,
  RunOverview,
  ShowInFolderView,
} from '../views/after-run'
import { environmentNameSchema, runIdSchema, runRef, request } from './arguments'

export const afterRunRequests = {
  /** A run with what this device knows of it (input file, row numbers, retries, saves). */
  getRunOverview: request<RunOverview>()(runRef),
  /** A bounded preview of one artifact (text, JSON, CSV, image), fetched by the engine. */
  previewArtifact: request<ArtifactPreviewView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: runIdSchema,
      artifactId: z.string().min(1).max(256),
    }),
  ),
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
}
