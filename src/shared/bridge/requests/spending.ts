/**
 * The paid flows: a listing as a buyer sees it, plans, and the one verb that spends
 * (confirmSubmission).
 */
import * as z from 'zod'
import type {
  PendingSubmissionList,
  PilotRestView,
  SubmissionPlanView,
  SubmissionView,
  UploadResultView,
} from '../views/spending'
import {
  environmentNameSchema,
  fileRefSchema,
  idSchema,
  runTargetSchema,
  request,
  workIdSchema,
} from './arguments'

/** Most uploads a plan takes for a workbook's file cells (as many as a check lists). */
export const MAX_FILE_ASSETS = 5000

export const spendingRequests = {
  /**
   * Reads and validates a workbook for a template or a listing and works out what sending it
   * costs. Spends nothing; the plan is kept by the engine for confirmSubmission.
   */
  planSubmission: request<SubmissionPlanView>()(
    z.strictObject({
      environment: environmentNameSchema,
      file: fileRefSchema,
      target: runTargetSchema,
      /** Lets `cancelWork` abandon the planning while it waits for the service. */
      workId: workIdSchema.optional(),
      /** Send only the first N rows (a pilot). */
      pilotRows: z.number().int().min(1).max(1_000_000).optional(),
      /**
       * For a template: the address the service calls when the run ends ('' or absent: none),
       * checked by src/shared/callback-address.ts; remembered for the template here.
       */
      callbackUrl: z.string().max(100_000).optional(),
      /** Values of run-scoped fields, by field key, for every row. */
      runValues: z.record(z.string().min(1).max(256), z.unknown()).optional(),
      /** The sheet the check read (a workbook of several sheets), so the plan reads the same. */
      sheet: z.string().min(1).max(256).optional(),
      /**
       * Plan only the valid rows of a workbook whose problems are all in some rows; the others
       * are set aside in a workbook to fix, kept with the run once sent (saveSetAsideRows).
       */
      skipInvalid: z.boolean().optional(),
      /**
       * For a workbook sent as bytes (browser mode): the files already uploaded (uploadFiles)
       * for its file cells, by the cell's text as written. Such a workbook's file cells are
       * matched to these only; no path it names is read.
       */
      fileAssets: z
        .array(
          z.strictObject({
            path: z.string().trim().min(1).max(4096),
            inputAssetId: idSchema,
          }),
        )
        .max(MAX_FILE_ASSETS)
        .optional(),
    }),
  ),
  /**
   * Sends a plan: the only verb that spends. Refused without `confirmed: true`, above
   * `maxCostT`, and for an identical submission already accepted unless `again` is true.
   * A lost answer is resent with the same clientRequestId, so it makes at most one run.
   */
  confirmSubmission: request<SubmissionView>()(
    z.strictObject({
      environment: environmentNameSchema,
      planId: z.string().min(1).max(128),
      confirmed: z.literal(true),
      maxCostT: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      again: z.boolean().optional(),
      /** Send without the address the plan would ask the service to call when the run ends. */
      withoutCallback: z.boolean().optional(),
    }),
  ),
  /**
   * The failed rows of a finished run made on this device, as a plan (confirm it as above).
   * `edits` fixes cells of failed rows first (row as named in the run, field key -> new text),
   * or `file` brings them in a corrected workbook, checked like a workbook's cells; a plan with
   * problems has `validation.valid` false.
   */
  planRetryFailed: request<SubmissionPlanView>()(
    z.strictObject({
      environment: environmentNameSchema,
      runId: idSchema,
      edits: z
        .array(
          z.strictObject({
            row: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
            cells: z.record(z.string().min(1).max(200), z.string().max(100_000)),
          }),
        )
        .max(10_000)
        .optional(),
      /**
       * The workbook the run was sent from, corrected: its failed rows (by sheet row) give the
       * fixes instead of `edits`, checked the same way. Refused when its rows are not the run's.
       */
      file: fileRefSchema.optional(),
    }),
  ),
  /** What is left of the workbook a pilot run was sent from, or null (spends nothing). */
  getPilotRest: request<PilotRestView | null>()(
    z.strictObject({ environment: environmentNameSchema, runId: idSchema }),
  ),
  /** The rows of a pilot's workbook its batch has not sent, as a plan (confirm it as above). */
  planRestOfPilot: request<SubmissionPlanView>()(
    z.strictObject({ environment: environmentNameSchema, runId: idSchema }),
  ),
  /**
   * Stops a planning or an upload the page started with this `workId`: its requests to the
   * service are aborted and its caller gets a "cancelled" error. Nothing was sent or charged.
   */
  cancelWork: request<null>()(z.strictObject({ workId: workIdSchema })),
  /** Submissions sent but not answered yet, e.g. after a crash: a "sending" state that lasts. */
  listPendingSubmissions: request<PendingSubmissionList>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  /**
   * Sends the environment's unanswered submissions again, each with its own request id, in the
   * background (the service makes at most one run of each); submissionUpdated tells how each went.
   */
  resendPendingSubmissions: request<null>()(z.strictObject({ environment: environmentNameSchema })),
  /** Uploads dropped files as input assets (once per content): `uploadProgress` events follow. */
  uploadFiles: request<UploadResultView>()(
    z.strictObject({
      environment: environmentNameSchema,
      files: z.array(fileRefSchema).min(1).max(500),
      /** Lets `cancelWork` abort the uploads under way (a file not finished is not kept). */
      workId: workIdSchema.optional(),
    }),
  ),
}
