/**
 * The flows that spend money, written once for every front door:
 * - template runs: validate the workbook offline, upload its files, journal, runRows;
 * - listing executions: validate on the server, plan the cost, and execute only with an explicit
 *   confirmation, never above the spending cap; a pilot sends the first N rows;
 * - retry of the failed rows of a finished run, linked to it in the history.
 */
import { readFile } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import {
  isTerminalStatus,
  listingInputSchemaSchema,
  type CreatorListing,
  type InputRow,
  type ListingInputSchema,
  type RowError,
  type WorkbookValidation,
} from '../shared/contract'
import type { Connection, Engine } from './engine'
import { EngineError } from './errors'
import { templateSchema } from './schema-cache'
import type { Submission } from './submissions'
import { uploadFiles, type UploadProgress } from './uploads'

/** What reading a workbook against a schema gives (src/core/workbooks). */
export interface ParsedWorkbook extends WorkbookValidation {
  rows: InputRow[]
  /** The spreadsheet row number of each row. */
  rowNumbers: number[]
}

/** Reads a workbook (xlsx or csv) against a schema; the schema is null when it is not known. */
export type ReadWorkbook = (
  path: string,
  schema: ListingInputSchema | null,
) => Promise<ParsedWorkbook>

export interface RowSelection {
  /** First and last spreadsheet row to send (inclusive), e.g. from `--rows 2-11`. */
  fromRow?: number
  toRow?: number
  /** Only the first N rows (a pilot run). */
  first?: number
}

export interface ProgressHooks {
  signal?: AbortSignal
  onUpload?: (progress: UploadProgress) => void
  onStep?: (line: string) => void
}

/** A workbook that did not pass validation: nothing was sent. */
export interface Rejected {
  ok: false
  validation: WorkbookValidation
}

/** Keeps the selected rows (and their spreadsheet row numbers). */
export function selectRows(
  parsed: ParsedWorkbook,
  selection: RowSelection,
): { rows: InputRow[]; rowNumbers: number[] } {
  let picked = parsed.rows.map((row, i) => ({ row, number: parsed.rowNumbers[i] ?? i + 2 }))
  if (selection.fromRow !== undefined) picked = picked.filter((p) => p.number >= selection.fromRow!)
  if (selection.toRow !== undefined) picked = picked.filter((p) => p.number <= selection.toRow!)
  if (selection.first !== undefined) picked = picked.slice(0, selection.first)
  if (picked.length === 0) {
    throw new EngineError(
      'invalid-arguments',
      'No rows are left to send with that selection.',
      'Check the row range or the pilot size.',
    )
  }
  return { rows: picked.map((p) => p.row), rowNumbers: picked.map((p) => p.number) }
}

/** Uploads the local files named in file cells and puts their inputAssetId in their place. */
export async function uploadFileCells(
  engine: Engine,
  connection: Connection,
  rows: InputRow[],
  hooks: ProgressHooks = {},
): Promise<InputRow[]> {
  const paths = new Set<string>()
  const visit = (value: unknown, onPath: (path: string) => unknown): unknown => {
    if (Array.isArray(value)) return value.map((v) => visit(v, onPath))
    if (value && typeof value === 'object' && 'localPath' in value) {
      const path = (value as { localPath: unknown }).localPath
      if (typeof path === 'string') return onPath(path)
    }
    return value
  }
  for (const row of rows) for (const value of Object.values(row)) visit(value, (p) => paths.add(p))
  if (paths.size === 0) return rows
  hooks.onStep?.(`uploading ${paths.size} file${paths.size === 1 ? '' : 's'}`)
  const uploaded = await uploadFiles(engine.db, connection, [...paths], {
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onUpload ? { onProgress: hooks.onUpload } : {}),
  })
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        visit(value, (p) => ({ inputAssetId: uploaded.get(p)!.asset.inputAssetId })),
      ]),
    ),
  )
}

// ---- Official templates ---------------------------------------------------------------------

export interface TemplateRunRequest {
  file: string
  templateId: string
  callbackUrl?: string | undefined
  selection?: RowSelection
}

export interface Submitted {
  ok: true
  submission: Submission
}

/** Validates offline, uploads file cells, journals and sends runRows. */
export async function runTemplate(
  engine: Engine,
  connection: Connection,
  readWorkbook: ReadWorkbook,
  request: TemplateRunRequest,
  hooks: ProgressHooks = {},
): Promise<Rejected | Submitted> {
  const { schema } = await templateSchema(engine.db, connection, request.templateId, {
    signal: hooks.signal,
  })
  hooks.onStep?.(`checking ${basename(request.file)} against ${schema.name || request.templateId}`)
  const parsed = await readWorkbook(resolve(request.file), schema)
  if (!parsed.valid) return { ok: false, validation: onlyValidation(parsed) }
  const selected = selectRows(parsed, request.selection ?? {})
  const rows = await uploadFileCells(engine, connection, selected.rows, hooks)
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: request.templateId, callbackUrl: request.callbackUrl },
    rows,
    rowNumbers: selected.rowNumbers,
    inputPath: resolve(request.file),
  })
  hooks.onStep?.(
    `submitting ${rows.length} row${rows.length === 1 ? '' : 's'} (request ${entry.clientRequestId})`,
  )
  return {
    ok: true,
    submission: await engine.submissions.send(connection, entry, {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
    }),
  }
}

// ---- Marketplace listings -------------------------------------------------------------------

export interface ExecutionPlan {
  listingId: string
  listingVersionId: string
  /** The listing, when the service lets this account see it (its creator's listings). */
  listing: CreatorListing | null
  rows: InputRow[]
  rowNumbers: number[]
  /** Fee per task; null when the service does not show it to this account. */
  taskFeeT: number | null
  /** rows x fee, or null when the fee is not known. */
  estimateT: number | null
  unitLabel: string
  file: string
  validation: WorkbookValidation
}

/** Looks the listing up among those this account may see; null when it is not one of them. */
export async function findListing(
  connection: Connection,
  listingId: string,
  signal?: AbortSignal,
): Promise<CreatorListing | null> {
  const all = await connection.client.listAllCreatorListings({}, { signal })
  return all.find((l) => l.id === listingId) ?? null
}

/** The listing's input schema from its snapshot, or null when absent or unreadable. */
export function listingSchema(listing: CreatorListing | null): ListingInputSchema | null {
  if (!listing?.inputSchemaSnapshot) return null
  try {
    const parsed = listingInputSchemaSchema.safeParse(JSON.parse(listing.inputSchemaSnapshot))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * Validates the workbook on the service (validateWorkbook), reads its rows and works out what
 * executing them costs. Spends nothing.
 */
export async function planExecution(
  connection: Connection,
  readWorkbook: ReadWorkbook,
  request: { file: string; listingId: string; listingVersionId: string; selection?: RowSelection },
  hooks: ProgressHooks = {},
): Promise<Rejected | ({ ok: true } & ExecutionPlan)> {
  const file = resolve(request.file)
  const serverCheck = await validateOnServer(
    connection,
    file,
    request.listingId,
    request.listingVersionId,
    hooks,
  )
  if (!serverCheck.valid) return { ok: false, validation: serverCheck }
  const listing = await findListing(connection, request.listingId, hooks.signal).catch(() => null)
  const parsed = await readWorkbook(file, listingSchema(listing))
  if (!parsed.valid) return { ok: false, validation: onlyValidation(parsed) }
  const selected = selectRows(parsed, request.selection ?? {})
  const taskFeeT = listing ? listing.taskFixedFeeT : null
  return {
    ok: true,
    listingId: request.listingId,
    listingVersionId: request.listingVersionId,
    listing,
    rows: selected.rows,
    rowNumbers: selected.rowNumbers,
    taskFeeT,
    estimateT: taskFeeT === null ? null : taskFeeT * selected.rows.length,
    unitLabel: connection.unitLabel,
    file,
    validation: serverCheck,
  }
}

/** The server's validateWorkbook for a file on disk. */
export async function validateOnServer(
  connection: Connection,
  file: string,
  listingId: string,
  listingVersionId: string,
  hooks: ProgressHooks = {},
): Promise<WorkbookValidation> {
  let content: Buffer
  try {
    content = await readFile(file)
  } catch {
    throw new EngineError(
      'not-found',
      `The workbook “${file}” cannot be read.`,
      'Check that the file exists and that you may open it.',
    )
  }
  hooks.onStep?.(`validating ${basename(file)} on the service`)
  return connection.client.validateWorkbook(
    listingId,
    {
      clientRequestId: randomUUID(),
      confirm: true,
      filename: basename(file),
      listingVersionId,
      content,
    },
    { signal: hooks.signal, timeoutMs: 120_000 },
  )
}

/** One paragraph that says what confirming will spend. */
export function describePlan(plan: ExecutionPlan): string {
  const name = plan.listing?.displayName
    ? `“${plan.listing.displayName}” (${plan.listingId})`
    : plan.listingId
  const rows = `${plan.rows.length} row${plan.rows.length === 1 ? '' : 's'}`
  if (plan.taskFeeT === null || plan.estimateT === null) {
    return `Execute ${name}, version ${plan.listingVersionId}, on ${rows}. The service does not show this listing's fee to your account, so the cost is known only after execution.`
  }
  const terms = plan.listing?.pricingRuleVersion
    ? ` Pricing terms: ${plan.listing.pricingRuleVersion}.`
    : ''
  return `Execute ${name}, version ${plan.listingVersionId}, on ${rows} x ${plan.taskFeeT} ${plan.unitLabel} per task = ${plan.estimateT} ${plan.unitLabel} (estimate).${terms}`
}

/** Throws (spending nothing) when the estimate is above the cap, or a cap cannot be checked. */
export function checkSpendingCap(plan: ExecutionPlan, maxCostT: number | undefined): void {
  if (maxCostT !== undefined) {
    if (plan.estimateT === null) {
      throw new EngineError(
        'refused',
        `Nothing was executed: the fee of ${plan.listingId} is not shown to your account, so the spending cap of ${maxCostT} ${plan.unitLabel} cannot be checked.`,
        'Run a pilot of one row first (--pilot 1) to see the cost, or execute without a cap.',
      )
    }
    if (plan.estimateT > maxCostT) {
      throw new EngineError(
        'refused',
        `Nothing was executed: the estimate of ${plan.estimateT} ${plan.unitLabel} is above your cap of ${maxCostT} ${plan.unitLabel}.`,
        'Raise the cap, or send fewer rows (--pilot N).',
      )
    }
  }
}

/**
 * Executes a plan. `confirmed` must be the user's explicit yes; `maxCostT` is the spending cap.
 * Refuses (spending nothing) without confirmation, above the cap, or with a cap and an unknown fee.
 */
export async function executePlan(
  engine: Engine,
  connection: Connection,
  plan: ExecutionPlan,
  options: { confirmed: boolean; maxCostT?: number | undefined; retryOfRunId?: string | undefined },
  hooks: ProgressHooks = {},
): Promise<Submitted> {
  if (!options.confirmed) {
    throw new EngineError(
      'refused',
      'Nothing was executed: the execution was not confirmed.',
      'Confirm it to go ahead (on the command line: --yes, or answer yes at the prompt).',
    )
  }
  checkSpendingCap(plan, options.maxCostT)
  const rows = await uploadFileCells(engine, connection, plan.rows, hooks)
  const entry = await engine.submissions.journal(connection, {
    target: {
      kind: 'listing',
      listingId: plan.listingId,
      listingVersionId: plan.listingVersionId,
      taskFeeT: plan.taskFeeT ?? 0,
    },
    rows,
    rowNumbers: plan.rowNumbers,
    inputPath: plan.file,
    retryOfRunId: options.retryOfRunId,
  })
  hooks.onStep?.(
    `executing ${rows.length} row${rows.length === 1 ? '' : 's'} (request ${entry.clientRequestId})`,
  )
  return {
    ok: true,
    submission: await engine.submissions.send(connection, entry, {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
    }),
  }
}

// ---- Retry of failed rows -------------------------------------------------------------------

export interface RetryPlan {
  original: Submission
  rows: InputRow[]
  rowNumbers: number[]
  /** For listings: the plan to confirm. */
  execution: ExecutionPlan | null
}

/** The failed rows of a finished run made from this device, ready to submit again. */
export async function planRetryFailed(
  engine: Engine,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<RetryPlan> {
  const original = engine.submissions.byRun(connection.key, runId)
  if (!original) {
    throw new EngineError(
      'not-found',
      `Run ${runId} was not submitted from this computer, so its rows are not here to send again.`,
      'Submit the workbook again with only the rows you need (run ... --rows N-M).',
    )
  }
  const detail = await connection.client.run(runId, { signal })
  if (!isTerminalStatus(detail.run.status)) {
    throw new EngineError(
      'refused',
      `Run ${runId} is still ${detail.run.status}.`,
      'Wait until it has finished (runs watch), then retry its failed rows.',
    )
  }
  const failed = new Set(
    detail.tasks.filter((t) => t.status === 'failed').map((t) => t.sourceRowIndex),
  )
  if (failed.size === 0) {
    throw new EngineError('refused', `Run ${runId} has no failed rows.`, 'Nothing to retry.')
  }
  const picked = original.rows.map((row, i) => ({ row, i })).filter((p) => failed.has(p.i))
  const rows = picked.map((p) => p.row)
  const rowNumbers = picked.map((p) => original.rowNumbers[p.i] ?? p.i + 2)
  let execution: ExecutionPlan | null = null
  if (original.targetKind === 'listing') {
    const listing = await findListing(connection, original.targetId, signal).catch(() => null)
    const taskFeeT = listing ? listing.taskFixedFeeT : original.taskFeeT || null
    execution = {
      listingId: original.targetId,
      listingVersionId: listing?.listingVersionId || original.listingVersionId,
      listing,
      rows,
      rowNumbers,
      taskFeeT,
      estimateT: taskFeeT === null ? null : taskFeeT * rows.length,
      unitLabel: connection.unitLabel,
      file: original.inputCopyPath,
      validation: { valid: true, fileErrors: [], rowErrors: [] },
    }
  }
  return { original, rows, rowNumbers, execution }
}

/** Submits a template retry (listings go through executePlan with the user's confirmation). */
export async function submitTemplateRetry(
  engine: Engine,
  connection: Connection,
  plan: RetryPlan,
  hooks: ProgressHooks = {},
): Promise<Submitted> {
  const entry = await engine.submissions.journal(connection, {
    target: {
      kind: 'template',
      templateId: plan.original.targetId,
      callbackUrl: plan.original.callbackUrl || undefined,
    },
    rows: plan.rows,
    rowNumbers: plan.rowNumbers,
    inputPath: plan.original.inputCopyPath || undefined,
    retryOfRunId: plan.original.runId,
  })
  hooks.onStep?.(`resubmitting ${plan.rows.length} failed row${plan.rows.length === 1 ? '' : 's'}`)
  return {
    ok: true,
    submission: await engine.submissions.send(connection, entry, {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
    }),
  }
}

function onlyValidation(parsed: WorkbookValidation): WorkbookValidation {
  return {
    valid: parsed.valid,
    fileErrors: parsed.fileErrors,
    rowErrors: parsed.rowErrors as RowError[],
  }
}
