/** The verbs of the runs list and an open run: pages, detail, and following them. */
import * as z from 'zod'
import type { ArtifactPreviewView, RunOverview } from '../views/after-run'
import type { RunDetailView, RunOutputsView, RunPage, RunRowsView, RunsUpdate } from '../views/runs'
import { environmentNameSchema, runIdSchema, runRef, request } from './arguments'

const runStatusFilter = z.string().trim().min(1).max(64)

/** A window of a run's rows or outputs: from a position, so many. */
const runWindow = z.strictObject({
  environment: environmentNameSchema,
  runId: runIdSchema,
  from: z.number().int().min(0).max(10_000_000),
  count: z.number().int().min(1).max(2000),
})

export const runRequests = {
  listRuns: request<RunPage>()(
    z.strictObject({
      environment: environmentNameSchema,
      status: runStatusFilter.optional(),
      pageSize: z.number().int().min(1).max(200).optional(),
      pageToken: z.string().max(4096).optional(),
    }),
  ),
  getRun: request<RunDetailView>()(
    z.strictObject({ environment: environmentNameSchema, runId: z.string().min(1).max(256) }),
  ),
  /** Follow an environment's runs: `runsUpdated` events arrive until `unwatchRuns`. */
  watchRuns: request<RunsUpdate>()(
    z.strictObject({ environment: environmentNameSchema, status: runStatusFilter.optional() }),
  ),
  unwatchRuns: request<null>()(z.strictObject({ environment: environmentNameSchema })),
  /** Look again now instead of waiting for the next scheduled refresh. */
  refreshRuns: request<RunsUpdate>()(z.strictObject({ environment: environmentNameSchema })),
  /**
   * An open run detail follows its run, wherever it sits in the runs list: `runDetailUpdated`
   * events arrive while it changes, `runEnded` when it ends, until `unfollowRun`.
   */
  followRun: request<null>()(runRef),
  unfollowRun: request<null>()(runRef),
  /**
   * A window that missed a `runDetailChanged` of a followed run: the engine sends the run's
   * whole detail again with its next change.
   */
  resendRunDetail: request<null>()(runRef),
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
  /** A window of a run's rows as last read (a run shown a window at a time: RunOverview.rows). */
  getRunRows: request<RunRowsView>()(
    runWindow.extend({ filter: z.enum(['all', 'failed']).optional() }),
  ),
  /** A window of a run's outputs as last read, without their content (previewArtifact shows it). */
  getRunOutputs: request<RunOutputsView>()(runWindow),
}
