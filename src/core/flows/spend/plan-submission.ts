/**
 * Planning a submission from a workbook: read and validate it for a template (offline, against
 * its schema) or a listing (on the service, then against the buyer's view of its schema), pick
 * the rows, and work out what sending them costs. Spends nothing; an invalid workbook gives a
 * plan with `validation.valid` false, which cannot be confirmed.
 */
import type { AmountT } from '../../../shared/format/amounts'
import { defined } from '../../../shared/defined'
import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import type { InputRow, ListingInputSchema, WorkbookValidation } from '../../../shared/contract'
import type { ListingSource } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import type { Connection } from '../../environments/connection'
import { buyerListing, rowByHeaderKeys, schemaFromWorkbookMapping } from '../listings/buyer-listing'
import { sheetBatch } from './batch-plans'
import { withCheckedCallback } from '../prepare/callback-addresses'
import { costAndHistory } from './cost'
import {
  chosenRows,
  validateOnServer,
  type ParsedWorkbook,
  type ProgressHooks,
  type ReadWorkbook,
} from './submission-inputs'
import type { Plan, PlanRequest, SpendServices } from './plan'
import { newSpillPath, PlanRows } from './plan-rows'
import { PLAN_TTL_MS } from './plan-store'

export const noProblems: WorkbookValidation = { valid: true, fileErrors: [], rowErrors: [] }

function withRunValues(rows: PlanRows, runValues: Record<string, unknown> | undefined) {
  if (!runValues || Object.keys(runValues).length === 0) return rows
  return rows.map((row) => ({ ...row, ...runValues }))
}

/** The parsed rows at `indexes`: from the read's spill file, or from memory. */
function rowsAt(parsed: ParsedWorkbook, indexes: number[]): PlanRows {
  if (parsed.spill) return PlanRows.spilled(parsed.spill, indexes)
  return PlanRows.of(indexes.map((i) => parsed.rows[i]!))
}

/**
 * Reads the workbook, its rows kept in a spill file when the services have a folder for them;
 * the file is removed again when the read fails.
 */
async function readSheet(
  services: Pick<SpendServices, 'spillFolder'>,
  readWorkbook: ReadWorkbook,
  file: string,
  schema: ListingInputSchema | null,
): Promise<ParsedWorkbook> {
  if (!services.spillFolder) return readWorkbook(file, schema)
  const path = await newSpillPath(services.spillFolder, 2 * PLAN_TTL_MS)
  try {
    return await readWorkbook(file, schema, { spill: { path } })
  } catch (error) {
    await rm(path, { force: true })
    throw error
  }
}

/** The values of the schema's run-scoped fields in `row` (an earlier submission's first row). */
function runScopedValues(schema: ListingInputSchema | null, row: InputRow | undefined) {
  if (!schema || !row) return undefined
  const keys = schema.fields.filter((f) => f.scope === 'run').map((f) => f.key)
  return Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k]]))
}

function onlyValidation(v: WorkbookValidation): WorkbookValidation {
  return { valid: v.valid, fileErrors: v.fileErrors, rowErrors: v.rowErrors }
}

/**
 * The rows' numbers in the buyer's own sheet, when a set-aside workbook read again knows each
 * one's (0 in `sourceRows`: not known); null when it is not such a workbook or a row is unknown.
 */
function inOwnSheet(parsed: ParsedWorkbook, numbers: number[]): number[] | null {
  const source = parsed.sourceRows
  if (!source || source.length !== parsed.rowNumbers.length) return null
  const own = new Map(parsed.rowNumbers.map((n, i) => [n, source[i]!]))
  const mapped = numbers.map((n) => own.get(n) ?? 0)
  return mapped.every((n) => n > 0) ? mapped : null
}

/** What the target tells before the workbook is read: its schema, name, fee and terms. */
interface TargetFacts {
  schema: ListingInputSchema | null
  name: string
  fee: AmountT | null
  terms: string
  schemaSource: ListingSource | 'template'
  /** The service's own check of the workbook (listings only). */
  serverCheck: WorkbookValidation
}

async function targetFacts(
  services: Pick<SpendServices, 'schemas'>,
  connection: Connection,
  target: RunTarget,
  file: string,
  fileName: string,
  hooks: ProgressHooks,
  checkedHere = false,
): Promise<TargetFacts> {
  if (target.kind === 'template') {
    const cached = await services.schemas.template(connection, target.templateId, {
      signal: hooks.signal,
    })
    const name = cached.schema.name || target.templateId
    hooks.onStep?.(`checking ${fileName} against ${name}`)
    return {
      schema: cached.schema,
      name,
      fee: null,
      terms: '',
      schemaSource: 'template',
      serverCheck: noProblems,
    }
  }
  const serverCheck = checkedHere
    ? noProblems
    : await validateOnServer(
        connection,
        file,
        target.listingId,
        target.listingVersionId,
        hooks,
        fileName,
      )
  const listing = await buyerListing(connection.client, target.listingId, hooks.signal)
  let schema = listing.schema
  let schemaSource: ListingSource | 'template' = listing.source
  if (!schema) {
    schema = await schemaFromWorkbookMapping(file, target.listingId)
    schemaSource = schema ? 'workbook' : 'headers'
  }
  return {
    schema,
    name: listing.displayName || target.listingId,
    fee: listing.taskFixedFeeT,
    terms: listing.pricingRuleVersion,
    schemaSource,
    serverCheck,
  }
}

function targetsOf(
  target: RunTarget,
  name: string,
  fee: AmountT | null,
): Pick<Plan, 'targetView'> & { submissionTarget: RunTarget } {
  if (target.kind === 'template') {
    return {
      targetView: { kind: 'template', templateId: target.templateId, name },
      submissionTarget: {
        kind: 'template',
        templateId: target.templateId,
        callbackUrl: target.callbackUrl,
      },
    }
  }
  return {
    targetView: {
      kind: 'listing',
      listingId: target.listingId,
      listingVersionId: target.listingVersionId,
      name,
    },
    submissionTarget: {
      kind: 'listing',
      listingId: target.listingId,
      listingVersionId: target.listingVersionId,
      taskFixedFeeT: fee,
    },
  }
}

/** What every plan of a workbook has, valid or not. */
type PlanBase = Pick<
  Plan,
  | 'connection'
  | 'target'
  | 'targetView'
  | 'file'
  | 'fileName'
  | 'terms'
  | 'schemaSource'
  | 'confirmRequired'
  | 'retryOfRunId'
  | 'batchOfRunId'
  | 'scratch'
  | 'createdAtMs'
  | 'expiresAtMs'
>

/** What every plan of this request has, valid or not. */
function planBase(
  services: Pick<SpendServices, 'plans'>,
  connection: Connection,
  request: PlanRequest,
  facts: TargetFacts,
  targets: ReturnType<typeof targetsOf>,
): PlanBase {
  const file = resolve(request.file)
  return {
    connection,
    target: targets.submissionTarget,
    targetView: targets.targetView,
    file,
    fileName: request.fileName ?? basename(file),
    terms: facts.terms,
    schemaSource: facts.schemaSource,
    confirmRequired: true,
    retryOfRunId: null,
    batchOfRunId: request.batchOfRunId ?? null,
    scratch: request.scratch,
    ...services.plans.expiry(),
  }
}

/** A plan of a workbook with problems: it shows them and cannot be confirmed. */
function rejectedPlan(
  base: PlanBase,
  totalRows: number,
  fee: AmountT | null,
  validation: WorkbookValidation,
): Plan {
  return {
    ...base,
    id: '',
    rows: PlanRows.of([]),
    rowNumbers: [],
    rowNumbering: 'spreadsheet',
    totalRows,
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

/**
 * Reads and validates a workbook and works out what sending the selected rows costs. Spends
 * nothing. An invalid workbook gives a plan with `validation.valid` false.
 */
export async function planSubmission(
  services: SpendServices,
  connection: Connection,
  readWorkbook: ReadWorkbook,
  request: PlanRequest,
  hooks: ProgressHooks = {},
): Promise<Plan> {
  const file = resolve(request.file)
  const fileName = request.fileName ?? basename(file)
  // A bad address is refused before anything is read or asked of the service.
  const target = withCheckedCallback(request.target)
  const facts = await targetFacts(
    services,
    connection,
    target,
    file,
    fileName,
    hooks,
    request.checkedHere,
  )
  const parsed = await readSheet(services, readWorkbook, file, facts.schema)
  try {
    return await planOfRows(
      services,
      connection,
      request,
      { file, fileName, target, facts, parsed },
      hooks,
    )
  } catch (error) {
    if (parsed.spill) await rm(parsed.spill.path, { force: true })
    throw error
  }
}

/** The plan of the rows read (the spill of a plan that cannot be confirmed removed). */
async function planOfRows(
  services: SpendServices,
  connection: Connection,
  request: PlanRequest,
  read: {
    file: string
    fileName: string
    target: RunTarget
    facts: TargetFacts
    parsed: ParsedWorkbook
  },
  hooks: ProgressHooks,
): Promise<Plan> {
  const { file, fileName, target, facts, parsed } = read
  const validation = !facts.serverCheck.valid
    ? facts.serverCheck
    : !parsed.valid
      ? onlyValidation(parsed)
      : facts.serverCheck
  const { targetView, submissionTarget } = targetsOf(target, facts.name, facts.fee)
  const base = planBase(services, connection, request, facts, { targetView, submissionTarget })
  if (!validation.valid) {
    if (parsed.spill) await rm(parsed.spill.path, { force: true })
    return rejectedPlan(base, parsed.rowNumbers.length, facts.fee, validation)
  }
  const selected = chosenRows(parsed, request.selection ?? {})
  const picked = rowsAt(parsed, selected.indexes)
  const keyed =
    target.kind === 'listing' && facts.schemaSource === 'headers'
      ? picked.map(rowByHeaderKeys)
      : picked
  const rows = withRunValues(
    keyed,
    request.runValues ?? runScopedValues(facts.schema, request.runValuesFrom),
  )
  // A set-aside workbook read again names each row's row in the buyer's own sheet.
  const ownRows = inOwnSheet(parsed, selected.rowNumbers)
  const rowNumbers = ownRows ?? selected.rowNumbers
  const isPilot = (request.selection?.first ?? Infinity) < parsed.rowNumbers.length
  const costs = await costAndHistory(
    services,
    connection,
    submissionTarget,
    rows,
    facts.fee,
    hooks.signal,
    request.batchOfRunId ? [request.batchOfRunId] : [],
  )
  const inBatch = await batchOfSheet(
    services,
    connection,
    request,
    {
      sheetFile: request.sheetFile ?? file,
      fileName,
      parsed,
      kind: request.sendKind ?? (isPilot ? 'pilot' : parsed.setAside?.rows ? 'valid' : 'all'),
      target: submissionTarget,
      sending: rowNumbers,
      inOwnSheet: ownRows !== null,
    },
    hooks.signal,
  )
  return services.plans.add({
    ...base,
    id: randomUUID(),
    rows,
    rowNumbers,
    rowNumbering: 'spreadsheet',
    totalRows: parsed.rowNumbers.length,
    pilotRows: isPilot ? rows.length : null,
    taskFixedFeeT: facts.fee,
    validation,
    ...costs,
    ...inBatch,
  })
}

/**
 * The plan's batch, its rows paid before, and what follows from the request: the buyer's own
 * workbook behind a copy, and the run whose set-aside rows these are.
 */
async function batchOfSheet(
  services: SpendServices,
  connection: Connection,
  request: PlanRequest,
  read: Omit<Parameters<typeof sheetBatch>[2], 'followUpOf'>,
  signal?: AbortSignal,
): Promise<
  Pick<Plan, 'batch' | 'paidBefore' | 'sheetFile' | 'followsSetAsideOf'> & { retryOfRunId?: string }
> {
  const followUpOf = request.followUpOf
  const inBatch = await sheetBatch(services, connection, { ...read, followUpOf }, signal)
  return {
    ...inBatch,
    ...defined({
      sheetFile: request.sheetFile ? resolve(request.sheetFile) : undefined,
      retryOfRunId: followUpOf || undefined,
      followsSetAsideOf: followUpOf || undefined,
    }),
  }
}
