/**
 * Plan, then confirm: the one way money is spent, for every front door (the CLI's run, execute
 * and runs retry-failed; the Bridge's planSubmission, planRetryFailed and confirmSubmission).
 *
 * A plan reads and validates the input, works out the cost (rows x fee; without a fee, from the
 * actual cost per row of an ended earlier run of the same target, e.g. a pilot), and looks in the
 * history for an identical submission (environment, target, input content) already accepted or
 * still unanswered. Planning spends nothing.
 *
 * Confirming a plan refuses without the user's explicit yes, above the spending cap, and for an
 * identical submission already accepted unless the user asked for it again; otherwise it uploads
 * file cells, journals the submission (before sending) and sends it (see submissions.ts).
 */
import { randomUUID } from 'node:crypto'
import { basename, resolve } from 'node:path'
import {
  isTerminalStatus,
  type InputRow,
  type ListingInputSchema,
  type RunSummary,
  type WorkbookValidation,
} from '../../../shared/contract'
import type {
  DuplicateView,
  EstimateSource,
  ListingSource,
  PlanTarget,
  SubmissionPlanView,
} from '../../../shared/bridge'
import type { Connection } from '../../environments/connection'
import type { Engine } from '../../engine'
import { EngineError } from '../../errors'
import {
  buyerListing,
  rowsByHeaderKeys,
  schemaFromWorkbookMapping,
  sourceNote,
  type BuyerListing,
} from '../listings/buyer-listing'
import {
  selectRows,
  uploadFileCells,
  validateOnServer,
  type ProgressHooks,
  type ReadWorkbook,
  type RowSelection,
} from './execution'
import { PlanStore } from './plan-store'
import { fingerprintOf, type Submission, type SubmissionTarget } from './submissions'
import { hashFile } from './uploads'

export type PlanTargetRequest =
  | { kind: 'template'; templateId: string; callbackUrl?: string | undefined }
  | { kind: 'listing'; listingId: string; listingVersionId: string }

export interface PlanRequest {
  /** The workbook (xlsx or csv) on this computer. */
  file: string
  /** The name to show for it, when the path is a temporary copy. */
  fileName?: string | undefined
  target: PlanTargetRequest
  selection?: RowSelection | undefined
  /** Values of run-scoped fields for every row (field key -> value). */
  runValues?: Record<string, unknown> | undefined
  /** A folder to remove once the plan is gone (a browser's bytes written to disk). */
  scratch?: string | undefined
}

export interface LearnedCost {
  runId: string
  rows: number
  actualCostT: number
  costPerRowT: number
}

/** A plan the engine keeps until it is confirmed, replaced or expires. */
export interface Plan {
  id: string
  connection: Connection
  target: SubmissionTarget
  targetView: PlanTarget
  file: string
  fileName: string
  rows: InputRow[]
  rowNumbers: number[]
  rowNumbering: 'spreadsheet' | 'submitted'
  totalRows: number
  pilotRows: number | null
  taskFixedFeeT: number | null
  estimateT: number | null
  estimateSource: EstimateSource
  learnedFrom: LearnedCost | null
  terms: string
  schemaSource: ListingSource | 'template'
  validation: WorkbookValidation
  fingerprint: string
  duplicateOf: Submission | null
  unansweredOf: Submission | null
  confirmRequired: boolean
  retryOfRunId: string | null
  createdAtMs: number
  expiresAtMs: number
  scratch?: string | undefined
}

const stores = new WeakMap<Engine, PlanStore<Plan>>()

/** The plans an engine keeps until they are confirmed or expire (emptied when it closes). */
export function plansOf(engine: Engine): PlanStore<Plan> {
  let store = stores.get(engine)
  if (!store) {
    const created = new PlanStore<Plan>()
    engine.onClose(() => created.clear())
    stores.set(engine, created)
    store = created
  }
  return store
}

// ---- Working out the cost -------------------------------------------------------------------

/** The run summary the history last saw, refreshed from the service when it had not ended. */
async function endedRun(
  engine: Engine,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<RunSummary | null> {
  const seen = engine.history.seenRun(connection.historyKey, runId)
  if (seen && isTerminalStatus(seen.status)) return seen
  try {
    const detail = await connection.client.run(runId, { signal })
    engine.recordRuns(connection.historyKey, [detail.run])
    return isTerminalStatus(detail.run.status) ? detail.run : null
  } catch {
    return null
  }
}

/**
 * The actual cost per row of the newest ended run of this target sent from this device (a
 * pilot, or any earlier run): its actualCostT over the rows that succeeded (failed rows are not
 * charged). Null when none has ended with a succeeded row.
 */
export async function learnCostPerRow(
  engine: Engine,
  connection: Connection,
  kind: 'template' | 'listing',
  targetId: string,
  signal?: AbortSignal,
): Promise<LearnedCost | null> {
  for (const earlier of engine.submissions.acceptedOfTarget(
    connection.historyKey,
    kind,
    targetId,
    3,
  )) {
    const run = await endedRun(engine, connection, earlier.runId, signal)
    if (!run || run.completedTasks <= 0) continue
    return {
      runId: run.runId,
      rows: run.completedTasks,
      actualCostT: run.actualCostT,
      costPerRowT: run.actualCostT / run.completedTasks,
    }
  }
  return null
}

function estimateOf(
  rowCount: number,
  fee: number | null,
  learned: LearnedCost | null,
): { estimateT: number | null; estimateSource: EstimateSource } {
  if (fee !== null) return { estimateT: fee * rowCount, estimateSource: 'fee' }
  if (learned) {
    return {
      estimateT: Math.ceil((learned.actualCostT * rowCount) / learned.rows),
      estimateSource: 'pilot',
    }
  }
  return { estimateT: null, estimateSource: 'none' }
}

/**
 * What identifies the input's content before anything is uploaded: each local file named in a
 * cell counts by its SHA-256, so the same workbook with the same files is the same submission.
 */
async function contentRows(rows: InputRow[], signal?: AbortSignal): Promise<InputRow[]> {
  const hashes = new Map<string, string>()
  const visit = async (value: unknown): Promise<unknown> => {
    if (Array.isArray(value)) return Promise.all(value.map(visit))
    if (value && typeof value === 'object' && 'localPath' in value) {
      const path = (value as { localPath: unknown }).localPath
      if (typeof path === 'string') {
        let sha256 = hashes.get(path)
        if (sha256 === undefined) {
          sha256 = await hashFile(path, signal).catch(() => `unreadable:${path}`)
          hashes.set(path, sha256)
        }
        return { sha256 }
      }
    }
    return value
  }
  const out: InputRow[] = []
  for (const row of rows) {
    const entries = await Promise.all(
      Object.entries(row).map(async ([key, value]) => [key, await visit(value)] as const),
    )
    out.push(Object.fromEntries(entries))
  }
  return out
}

function withRunValues(rows: InputRow[], runValues: Record<string, unknown> | undefined) {
  if (!runValues || Object.keys(runValues).length === 0) return rows
  return rows.map((row) => ({ ...row, ...runValues }))
}

const noProblems: WorkbookValidation = { valid: true, fileErrors: [], rowErrors: [] }

function onlyValidation(v: WorkbookValidation): WorkbookValidation {
  return { valid: v.valid, fileErrors: v.fileErrors, rowErrors: v.rowErrors }
}

// ---- Planning -------------------------------------------------------------------------------

/**
 * Reads and validates a workbook for a template (offline, against its schema) or a listing (on
 * the service, then against the buyer's view of its schema), and works out what sending the
 * selected rows costs. Spends nothing. An invalid workbook gives a plan with `validation.valid`
 * false, which cannot be confirmed.
 */
export async function planSubmission(
  engine: Engine,
  connection: Connection,
  readWorkbook: ReadWorkbook,
  request: PlanRequest,
  hooks: ProgressHooks = {},
): Promise<Plan> {
  const file = resolve(request.file)
  const fileName = request.fileName ?? basename(file)
  const { target } = request
  let schema: ListingInputSchema | null
  let name: string
  let fee: number | null = null
  let terms = ''
  let schemaSource: ListingSource | 'template'
  let serverCheck: WorkbookValidation = noProblems
  let listing: BuyerListing | null = null
  if (target.kind === 'template') {
    const cached = await engine.schemas.template(connection, target.templateId, {
      signal: hooks.signal,
    })
    schema = cached.schema
    name = cached.schema.name || target.templateId
    schemaSource = 'template'
    hooks.onStep?.(`checking ${fileName} against ${name}`)
  } else {
    serverCheck = await validateOnServer(
      connection,
      file,
      target.listingId,
      target.listingVersionId,
      hooks,
      fileName,
    )
    listing = await buyerListing(connection.client, target.listingId, hooks.signal)
    schema = listing.schema
    schemaSource = listing.source
    if (!schema) {
      schema = await schemaFromWorkbookMapping(file, target.listingId)
      schemaSource = schema ? 'workbook' : 'headers'
    }
    name = listing.displayName || target.listingId
    fee = listing.taskFixedFeeT
    terms = listing.pricingRuleVersion
  }
  const parsed = await readWorkbook(file, schema)
  const validation = !serverCheck.valid
    ? serverCheck
    : !parsed.valid
      ? onlyValidation(parsed)
      : serverCheck
  const targetView: PlanTarget =
    target.kind === 'template'
      ? { kind: 'template', templateId: target.templateId, name }
      : {
          kind: 'listing',
          listingId: target.listingId,
          listingVersionId: target.listingVersionId,
          name,
        }
  const submissionTarget: SubmissionTarget =
    target.kind === 'template'
      ? { kind: 'template', templateId: target.templateId, callbackUrl: target.callbackUrl }
      : {
          kind: 'listing',
          listingId: target.listingId,
          listingVersionId: target.listingVersionId,
          taskFixedFeeT: fee,
        }
  const base = {
    connection,
    target: submissionTarget,
    targetView,
    file,
    fileName,
    terms,
    schemaSource,
    confirmRequired: target.kind === 'listing',
    retryOfRunId: null,
    scratch: request.scratch,
    ...plansOf(engine).expiry(),
  }
  if (!validation.valid) {
    return {
      ...base,
      id: '',
      rows: [],
      rowNumbers: [],
      rowNumbering: 'spreadsheet',
      totalRows: parsed.rows.length,
      pilotRows: null,
      taskFixedFeeT: fee,
      estimateT: null,
      estimateSource: 'none',
      learnedFrom: null,
      validation,
      fingerprint: '',
      duplicateOf: null,
      unansweredOf: null,
    }
  }
  const keyed =
    target.kind === 'listing' && schemaSource === 'headers'
      ? { ...parsed, rows: rowsByHeaderKeys(parsed.rows) }
      : parsed
  const selected = selectRows(keyed, request.selection ?? {})
  const rows = withRunValues(selected.rows, request.runValues)
  const pilot = request.selection?.first
  const plan: Plan = {
    ...base,
    id: randomUUID(),
    rows,
    rowNumbers: selected.rowNumbers,
    rowNumbering: 'spreadsheet',
    totalRows: parsed.rows.length,
    pilotRows: pilot !== undefined && pilot < parsed.rows.length ? rows.length : null,
    taskFixedFeeT: fee,
    validation,
    ...(await costAndHistory(engine, connection, submissionTarget, rows, fee, hooks.signal)),
  }
  return plansOf(engine).add(plan)
}

async function costAndHistory(
  engine: Engine,
  connection: Connection,
  target: SubmissionTarget,
  rows: InputRow[],
  fee: number | null,
  signal?: AbortSignal,
) {
  const targetId = target.kind === 'template' ? target.templateId : target.listingId
  const learnedFrom =
    fee === null ? await learnCostPerRow(engine, connection, target.kind, targetId, signal) : null
  const fingerprint = fingerprintOf(connection.historyKey, target, await contentRows(rows, signal))
  return {
    ...estimateOf(rows.length, fee, learnedFrom),
    learnedFrom,
    fingerprint,
    duplicateOf: engine.submissions.acceptedLike(connection.historyKey, fingerprint),
    unansweredOf: engine.submissions.unansweredLike(connection.historyKey, fingerprint),
  }
}

/**
 * The failed rows of a finished run made from this device, as a plan to confirm. For a listing
 * the fee and terms are looked up again (the buyer's view); the rows are the ones kept in the
 * history, named as they were (spreadsheet rows when they came from a workbook).
 */
export async function planRetryFailed(
  engine: Engine,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<Plan> {
  const original = engine.submissions.byRun(connection.historyKey, runId)
  if (!original) {
    throw new EngineError(
      'not-found',
      `Run ${runId} was not submitted from this computer, so its rows are not here to send again.`,
      'Send the workbook again with only the rows you need.',
      { action: 'send-fewer-rows' },
    )
  }
  const detail = await connection.client.run(runId, { signal })
  engine.recordRuns(connection.historyKey, [detail.run])
  if (!isTerminalStatus(detail.run.status)) {
    throw new EngineError(
      'conflict',
      `Run ${runId} is still ${detail.run.status}.`,
      'Wait until it has finished, then retry its failed rows.',
      { action: 'watch-run' },
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
  const fromWorkbook = original.rowNumbers.length > 0
  const rowNumbers = picked.map((p) => original.rowNumbers[p.i] ?? p.i + 1)
  let target: SubmissionTarget
  let targetView: PlanTarget
  let fee: number | null = null
  let terms = ''
  let schemaSource: ListingSource | 'template' = 'template'
  if (original.targetKind === 'listing') {
    const listing = await buyerListing(connection.client, original.targetId, signal)
    fee = listing.source === 'none' ? original.taskFixedFeeT : listing.taskFixedFeeT
    terms = listing.pricingRuleVersion
    schemaSource = listing.source
    const listingVersionId = listing.listingVersionId || original.listingVersionId
    target = {
      kind: 'listing',
      listingId: original.targetId,
      listingVersionId,
      taskFixedFeeT: fee,
    }
    targetView = {
      kind: 'listing',
      listingId: original.targetId,
      listingVersionId,
      name: listing.displayName || original.targetId,
    }
  } else {
    target = {
      kind: 'template',
      templateId: original.targetId,
      callbackUrl: original.callbackUrl || undefined,
    }
    targetView = {
      kind: 'template',
      templateId: original.targetId,
      name: detail.run.templateName || original.targetId,
    }
  }
  const plan: Plan = {
    id: randomUUID(),
    connection,
    target,
    targetView,
    file: original.inputCopyPath,
    fileName: original.inputFilename,
    rows,
    rowNumbers,
    rowNumbering: fromWorkbook ? 'spreadsheet' : 'submitted',
    totalRows: original.rowCount,
    pilotRows: null,
    taskFixedFeeT: fee,
    terms,
    schemaSource,
    validation: noProblems,
    confirmRequired: true,
    retryOfRunId: runId,
    ...plansOf(engine).expiry(),
    ...(await costAndHistory(engine, connection, target, rows, fee, signal)),
  }
  return plansOf(engine).add(plan)
}

// ---- Describing and confirming --------------------------------------------------------------

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** "Row 6", or "submitted row 5" when the rows did not come from a workbook here. */
export function rowName(plan: Pick<Plan, 'rowNumbering'>, n: number): string {
  return plan.rowNumbering === 'spreadsheet' ? `row ${n}` : `submitted row ${n}`
}

/** One paragraph that says what confirming will do and spend. */
export function describePlan(plan: Plan): string {
  const unit = plan.connection.unitLabel
  const what =
    plan.targetView.kind === 'listing'
      ? `Execute “${plan.targetView.name}” (${plan.targetView.listingId}, version ${plan.targetView.listingVersionId})`
      : `Run the template “${plan.targetView.name}” (${plan.targetView.templateId})`
  const rows = plan.pilotRows
    ? `a pilot of the first ${plan.pilotRows} of ${plan.totalRows} rows`
    : plural(plan.rows.length, 'row')
  const parts = [`${what} on ${rows}.`]
  if (plan.retryOfRunId) parts.push(`These are the failed rows of run ${plan.retryOfRunId}.`)
  if (plan.estimateSource === 'fee' && plan.taskFixedFeeT !== null) {
    parts.push(
      `${plural(plan.rows.length, 'row')} x ${plan.taskFixedFeeT} ${unit} per task = ${plan.estimateT} ${unit} (estimate; you are charged the actual cost).`,
    )
  } else if (plan.estimateSource === 'pilot' && plan.learnedFrom) {
    const perRow = Number(plan.learnedFrom.costPerRowT.toFixed(2))
    parts.push(
      `About ${plan.estimateT} ${unit} (estimate from run ${plan.learnedFrom.runId}, which cost ${plan.learnedFrom.actualCostT} ${unit} for ${plural(plan.learnedFrom.rows, 'row')}: ${perRow} ${unit} per row).`,
    )
  } else {
    parts.push(
      plan.targetView.kind === 'listing'
        ? 'The service does not show this listing’s fee to your account, so the cost is known only after the run. Run a pilot of a few rows first to learn it.'
        : 'The cost is known only after the run (the service shows it on the run).',
    )
  }
  if (plan.terms) parts.push(`Pricing terms: ${plan.terms}.`)
  if (plan.schemaSource !== 'template' && plan.schemaSource !== 'market') {
    parts.push(sourceNote(plan.schemaSource))
  }
  if (plan.duplicateOf) {
    parts.push(
      `The same rows were already sent to the same target as run ${plan.duplicateOf.runId} on ${new Date(plan.duplicateOf.updatedAtMs).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    )
  }
  return parts.join(' ')
}

export function duplicateView(s: Submission | null): DuplicateView | null {
  return s
    ? { runId: s.runId, clientRequestId: s.clientRequestId, acceptedAtMs: s.updatedAtMs }
    : null
}

/** The Bridge's view of a plan. */
export function planView(plan: Plan): SubmissionPlanView {
  return {
    planId: plan.id,
    environment: plan.connection.name,
    expiresAtMs: plan.expiresAtMs,
    target: plan.targetView,
    fileName: plan.fileName,
    rowCount: plan.rows.length,
    totalRows: plan.totalRows,
    rowNumbers: plan.rowNumbers,
    rowNumbering: plan.rowNumbering,
    pilotRows: plan.pilotRows,
    taskFixedFeeT: plan.taskFixedFeeT,
    estimateT: plan.estimateT,
    estimateSource: plan.estimateSource,
    learnedFrom: plan.learnedFrom,
    unitLabel: plan.connection.unitLabel,
    terms: plan.terms,
    schemaSource: plan.schemaSource,
    validation: plan.validation,
    duplicateOf: duplicateView(plan.duplicateOf),
    unansweredOf: plan.unansweredOf
      ? {
          clientRequestId: plan.unansweredOf.clientRequestId,
          sentAtMs: plan.unansweredOf.updatedAtMs,
        }
      : null,
    confirmRequired: plan.confirmRequired,
    retryOfRunId: plan.retryOfRunId,
    summary: plan.validation.valid
      ? describePlan(plan)
      : 'The workbook has problems: nothing can be sent.',
  }
}

/** Throws (spending nothing) when the estimate is above the cap, or a cap cannot be checked. */
export function checkSpendingCap(plan: Plan, maxCostT: number | undefined): void {
  if (maxCostT === undefined) return
  const unit = plan.connection.unitLabel
  if (plan.estimateT === null) {
    throw new EngineError(
      'over-limit',
      `Nothing was sent: the cost of these rows is not known before the run, so the spending cap of ${maxCostT} ${unit} cannot be checked.`,
      'Send a pilot of one row first without a cap to learn the cost per row, then send the rest with the cap.',
      { action: 'send-pilot' },
    )
  }
  if (plan.estimateT > maxCostT) {
    throw new EngineError(
      'over-limit',
      `Nothing was sent: the estimate of ${plan.estimateT} ${unit} is above your cap of ${maxCostT} ${unit}.`,
      'Raise the cap, or send fewer rows.',
      { action: 'send-fewer-rows' },
    )
  }
}

export interface ConfirmOptions {
  /** The user's explicit yes. */
  confirmed: boolean
  maxCostT?: number | undefined
  /** Send even though an identical submission was already accepted (a new paid run). */
  again?: boolean | undefined
}

export interface Confirmed {
  submission: Submission
  /** The earlier identical run, when `again` sent a new one. */
  againOf: Submission | null
}

/** Thrown by confirmPlan for an identical submission already accepted, without `again`. */
export class DuplicateSubmissionError extends EngineError {
  constructor(readonly earlier: Submission) {
    super(
      'conflict',
      `Nothing was sent: the same rows were already sent to the same target and accepted as run ${earlier.runId}.`,
      'Open that run, or confirm again to start a new paid run with the same rows.',
      { action: 'send-again' },
    )
    this.name = 'DuplicateSubmissionError'
  }
}

/**
 * Sends a plan: refuses (spending nothing) without confirmation, with an invalid workbook, above
 * the cap, or for a duplicate without `again`. Journals before sending; a lost answer leaves the
 * submission unanswered, and confirming again (or an identical plan) resends the same request.
 */
export async function confirmPlan(
  engine: Engine,
  plan: Plan,
  options: ConfirmOptions,
  hooks: ProgressHooks = {},
): Promise<Confirmed> {
  if (!plan.validation.valid || !plan.id) {
    throw new EngineError(
      'refused',
      'Nothing was sent: the workbook has problems.',
      'Fix the problems listed, then check the workbook again.',
    )
  }
  if (options.confirmed !== true) {
    throw new EngineError(
      'cancelled',
      'Nothing was sent: it was not confirmed.',
      'Confirm it to go ahead.',
      { action: 'confirm' },
    )
  }
  checkSpendingCap(plan, options.maxCostT)
  const connection = plan.connection
  // Looked up again: another window or the command line may have sent it meanwhile.
  const duplicate = engine.submissions.acceptedLike(connection.historyKey, plan.fingerprint)
  if (duplicate && !options.again) throw new DuplicateSubmissionError(duplicate)
  const rows = await uploadFileCells(engine, connection, plan.rows, hooks)
  const entry = await engine.submissions.journal(connection, {
    target: plan.target,
    rows,
    rowNumbers: plan.rowNumbering === 'spreadsheet' ? plan.rowNumbers : undefined,
    inputPath: plan.file || undefined,
    inputFilename: plan.fileName,
    retryOfRunId: plan.retryOfRunId ?? undefined,
    fingerprint: plan.fingerprint,
    estimatedCostT: plan.estimateT,
  })
  hooks.onStep?.(`sending ${plural(rows.length, 'row')} (request ${entry.clientRequestId})`)
  const submission = await engine.submissions.send(connection, entry, {
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  })
  plansOf(engine).drop(plan.id)
  return { submission, againOf: duplicate }
}
