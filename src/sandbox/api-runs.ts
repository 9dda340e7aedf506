/**
 * Handlers that create and read runs: runRows (official templates), execute (marketplace
 * listings), the run list and the run detail.
 */
import {
  creatorListingSchema,
  executeBodySchema,
  isExecutableListing,
  listingInputSchemaSchema,
  PAGE_LIMITS,
  QUERY,
  RUN_STATUSES,
  RUNS_ORDER_BY,
  runRowsBodySchema,
  type CreatorListing,
  type ExecutionResult,
  type InputRow,
  type ListingInputSchema,
  type RunRowsAcceptance,
} from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import {
  type ArtifactRow,
  type AssetRow,
  type Db,
  type ListingRow,
  type OfficialTemplateRow,
  type RunRow,
  type TaskRow,
  allRows,
  count,
  getRow,
  run,
} from './db'
import { badRequest, conflict, notFound, readJsonBody, validateBody } from './http'
import { previousAnswer, rememberAnswer, requestHash, type IdempotencyKey } from './idempotency'
import { newId, unixNow } from './ids'
import { normalizeOrderBy, parsePageSize } from './pagination'
import { assetReferences, checkRows, describeProblems, MAX_ROWS, spreadRunValues } from './rows'
import { uuidFrom } from './seed'
import { artifactOf, marketContextOf, runSummaryOf, runTaskOf } from './serialize'

export const PRICING_RULE_VERSION_DEFAULT = 'flat-task-fee-1'

// ---- lookups shared with other handlers -------------------------------------------------------

export function findOfficialTemplate(db: Db, templateId: string): OfficialTemplateRow {
  const template = getRow<OfficialTemplateRow>(
    db,
    'SELECT * FROM official_templates WHERE template_id = ?',
    templateId,
  )
  if (!template) {
    throw notFound(`There is no official template "${templateId}". Check the template ID.`)
  }
  return template
}

export interface VisibleListing {
  row: ListingRow
  listing: CreatorListing
  schema: ListingInputSchema
}

/**
 * A listing the caller may act on as a buyer: any published listing, and the caller's own in
 * any state. Everything else is 404, as if it did not exist.
 */
export function findVisibleListing(db: Db, userId: number, listingId: string): VisibleListing {
  const row = getRow<ListingRow>(
    db,
    'SELECT * FROM market_listings WHERE listing_id = ?',
    listingId,
  )
  const listing = row ? creatorListingSchema.parse(JSON.parse(row.listing_json)) : undefined
  if (!row || !listing || (row.owner_user_id !== userId && listing.status !== 'published')) {
    throw notFound(`There is no marketplace listing "${listingId}". Check the listing ID.`)
  }
  return { row, listing, schema: listingInputSchemaSchema.parse(JSON.parse(row.schema_json)) }
}

/** 409 unless the listing can be executed at the version the buyer confirmed. */
export function requireExecutable(listing: CreatorListing, listingVersionId: string): void {
  if (!isExecutableListing(listing)) {
    const reasons: string[] = []
    if (listing.status !== 'published')
      reasons.push(`its status is "${listing.status}", not published`)
    if (listing.saleStatus !== 'on_sale')
      reasons.push(`its sale status is "${listing.saleStatus}", not on_sale`)
    if (listing.executionAvailabilityStatus !== 'available') {
      reasons.push(
        `its execution availability is "${listing.executionAvailabilityStatus}", not available`,
      )
    }
    if (listing.listingVersionId !== listing.publishedVersionId) {
      reasons.push(
        `its current version ${listing.listingVersionId || '(none)'} is not the published version ${listing.publishedVersionId || '(none)'}`,
      )
    }
    throw conflict(`Listing "${listing.id}" cannot be executed now: ${reasons.join('; ')}.`)
  }
  if (listingVersionId !== listing.listingVersionId) {
    throw conflict(
      `Listing "${listing.id}" is at version ${listing.listingVersionId}, but the request is for version ${listingVersionId}. Validate the workbook against the current version and confirm again.`,
    )
  }
}

/** Checks rows against a schema and the caller's uploads; 400 naming the problems. */
export function acceptRows(
  db: Db,
  userId: number,
  schema: ListingInputSchema,
  rows: InputRow[],
  listName: string,
): InputRow[] {
  if (rows.length === 0) throw badRequest(`${listName} is empty; send at least one row.`)
  if (rows.length > MAX_ROWS) {
    throw badRequest(`${listName} has ${rows.length} rows; send at most ${MAX_ROWS} per request.`)
  }
  const spread = spreadRunValues(schema, rows)
  const problems = [...spread.problems, ...checkRows(schema, spread.rows)]
  for (const ref of assetReferences(schema, spread.rows)) {
    const asset = getRow<AssetRow>(
      db,
      'SELECT asset_id FROM input_assets WHERE asset_id = ? AND user_id = ?',
      ref.inputAssetId,
      userId,
    )
    if (!asset) {
      problems.push({
        rowIndex: ref.rowIndex,
        fieldKey: ref.fieldKey,
        error: `inputAssetId "${ref.inputAssetId}" is not one of your uploaded input assets; upload the file first`,
      })
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => a.rowIndex - b.rowIndex)
    throw badRequest(describeProblems(listName, problems))
  }
  return spread.rows
}

function readJson(ctx: SandboxContext, call: Call): Promise<unknown> {
  return readJsonBody(call.req, ctx.maxBodyBytes, ctx.bodyBudget)
}

// ---- run creation ----------------------------------------------------------------------------

interface NewRun {
  userId: number
  sourceType: 'official_template' | 'market'
  skill: string
  artifactMode: string
  schema: ListingInputSchema
  templateKey: string
  templateName: string
  definitionHash: string
  taskCostT: number
  callbackUrl: string
  rows: InputRow[]
  market?: {
    listingId: string
    listingVersionId: string
    skillName: string
    pricingRuleVersion: string
    taskFixedFeeT: number
  }
}

/** Stores a queued run with one pending task per row; call inside a transaction. */
function insertRun(db: Db, spec: NewRun): RunRow {
  const runId = newId('run')
  const now = unixNow()
  const tasks = spec.rows.length
  const plural = tasks === 1 ? 'row' : 'rows'
  const market = spec.market
  const estimated = market ? tasks * market.taskFixedFeeT : tasks * spec.taskCostT
  run(
    db,
    `INSERT INTO runs (run_id, user_id, status, source_type, skill, artifact_mode, schema_json,
       display_name, template_key, template_name, template_uuid, definition_hash, input_filename,
       total_tasks, task_cost_t, estimated_cost_t, created_at_unix, updated_at_unix, callback_url,
       listing_id, listing_version_id, run_transaction_id, skill_name, transaction_status,
       pricing_rule_version, task_fixed_fee_t, estimated_execution_cost_t, actual_execution_cost_t,
       estimated_buyer_payable_t, final_buyer_payable_t)
     VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    runId,
    spec.userId,
    spec.sourceType,
    spec.skill,
    spec.artifactMode,
    JSON.stringify(spec.schema),
    `${spec.templateName} (${tasks} ${plural})`,
    spec.templateKey,
    spec.templateName,
    uuidFrom(spec.templateKey),
    spec.definitionHash,
    tasks,
    market ? market.taskFixedFeeT : spec.taskCostT,
    estimated,
    now,
    now,
    spec.callbackUrl,
    market?.listingId ?? null,
    market?.listingVersionId ?? null,
    market ? newId('txn') : null,
    market?.skillName ?? null,
    market ? 'authorized' : null,
    market?.pricingRuleVersion ?? null,
    market?.taskFixedFeeT ?? null,
    market ? estimated : null,
    market ? 0 : null,
    market ? estimated : null,
    market ? 0 : null,
  )
  const insertTask = db.prepare(
    "INSERT INTO tasks (task_id, run_id, row_index, status, row_json) VALUES (?, ?, ?, 'pending', ?)",
  )
  spec.rows.forEach((row, index) =>
    insertTask.run(newId('task'), runId, index, JSON.stringify(row)),
  )
  return getRow<RunRow>(db, 'SELECT * FROM runs WHERE run_id = ?', runId)!
}

function checkCallbackUrl(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return ''
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw badRequest(`callbackUrl "${value}" is not a valid address; use an http or https URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(`callbackUrl must be an http or https URL; got ${url.protocol} address.`)
  }
  return url.toString()
}

// ---- handlers --------------------------------------------------------------------------------

export async function runRowsHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const templateId = call.params[0]!
  const template = findOfficialTemplate(ctx.db, templateId)
  const body = validateBody(runRowsBodySchema, await readJson(ctx, call))
  const key: IdempotencyKey = {
    userId: call.user.userId,
    endpoint: 'runRows',
    clientRequestId: body.clientRequestId,
    requestHash: requestHash(templateId, body),
  }
  const previous = previousAnswer(ctx.db, key)
  if (previous) return previous
  const callbackUrl = checkCallbackUrl(body.callbackUrl)
  const schema = listingInputSchemaSchema.parse(JSON.parse(template.schema_json))
  const rows = acceptRows(ctx.db, call.user.userId, schema, body.rows, 'rows')
  const name = (JSON.parse(template.schema_json) as { name?: string }).name || template.template_id
  const answer = ctx.db.transaction((): Answer => {
    const created = insertRun(ctx.db, {
      userId: call.user.userId,
      sourceType: 'official_template',
      skill: template.skill,
      artifactMode: template.artifact_mode,
      schema,
      templateKey: template.template_id,
      templateName: name,
      definitionHash: template.definition_hash,
      taskCostT: template.task_cost_t,
      callbackUrl,
      rows,
    })
    const acceptance: RunRowsAcceptance = {
      acceptedAtUnix: created.created_at_unix,
      runId: created.run_id,
      status: created.status,
    }
    const result: Answer = { status: 202, body: acceptance }
    rememberAnswer(ctx.db, key, result)
    return result
  })()
  ctx.scheduler.kick()
  return answer
}

export async function executeHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const listingId = call.params[0]!
  const { row, listing, schema } = findVisibleListing(ctx.db, call.user.userId, listingId)
  const body = validateBody(executeBodySchema, await readJson(ctx, call))
  if (body.confirm !== true) {
    throw badRequest(
      'confirm must be true: the buyer has to confirm the execution and its cost before anything is charged.',
    )
  }
  const key: IdempotencyKey = {
    userId: call.user.userId,
    endpoint: 'execute',
    clientRequestId: body.clientRequestId,
    requestHash: requestHash(listingId, body),
  }
  const previous = previousAnswer(ctx.db, key)
  if (previous) return previous
  requireExecutable(listing, body.listingVersionId)
  const rows = acceptRows(ctx.db, call.user.userId, schema, body.inputRows, 'inputRows')
  const answer = ctx.db.transaction((): Answer => {
    const created = insertRun(ctx.db, {
      userId: call.user.userId,
      sourceType: 'market',
      skill: row.skill,
      artifactMode: row.artifact_mode,
      schema,
      templateKey: listing.id,
      templateName: listing.displayName || listing.id,
      definitionHash: listing.packageHash,
      taskCostT: listing.taskFixedFeeT,
      callbackUrl: '',
      rows,
      market: {
        listingId: listing.id,
        listingVersionId: listing.listingVersionId,
        skillName: listing.displayName || listing.id,
        pricingRuleVersion: listing.pricingRuleVersion || PRICING_RULE_VERSION_DEFAULT,
        taskFixedFeeT: listing.taskFixedFeeT,
      },
    })
    const result: ExecutionResult = marketContextOf(created) as ExecutionResult
    const stored: Answer = { status: 200, body: result }
    rememberAnswer(ctx.db, key, stored)
    return stored
  })()
  ctx.scheduler.kick()
  return answer
}

export function listRunsHandler(ctx: SandboxContext, call: Call): Answer {
  const q = call.url.searchParams
  const names = QUERY.runs
  const status = q.get(names.status)?.trim() || ''
  if (status && !(RUN_STATUSES as readonly string[]).includes(status)) {
    throw badRequest(
      `${names.status} "${status}" is not a run status; use one of ${RUN_STATUSES.join(', ')}.`,
    )
  }
  const pageSize = parsePageSize(q.get(names.pageSize), names.pageSize, PAGE_LIMITS.runs)
  const orderByRaw = q.get(names.orderBy)
  const orderBy = orderByRaw && orderByRaw.trim() ? normalizeOrderBy(orderByRaw) : RUNS_ORDER_BY[0]
  if (!(RUNS_ORDER_BY as readonly string[]).includes(orderBy)) {
    throw badRequest(
      `${names.orderBy} "${orderByRaw}" is not supported; use ${RUNS_ORDER_BY.map((o) => `"${o}"`).join(' or ')}.`,
    )
  }
  const descending = orderBy === 'createdAt desc'
  const scope = { kind: 'runs', userId: call.user.userId, query: JSON.stringify([status, orderBy]) }
  const token = q.get(names.pageToken) ?? ''
  let after: number | undefined
  if (token) {
    const position = ctx.pageTokens.decode(token, scope)
    if (position.length !== 1 || typeof position[0] !== 'number')
      throw badRequest('pageToken is not valid for this list.')
    after = position[0]
  }
  const where = ['user_id = ?']
  const params: unknown[] = [call.user.userId]
  if (status) {
    where.push('status = ?')
    params.push(status)
  }
  const totalCount = count(
    ctx.db,
    `SELECT count(*) AS n FROM runs WHERE ${where.join(' AND ')}`,
    ...params,
  )
  if (after !== undefined) {
    where.push(descending ? 'seq < ?' : 'seq > ?')
    params.push(after)
  }
  const rows = allRows<RunRow>(
    ctx.db,
    `SELECT * FROM runs WHERE ${where.join(' AND ')} ORDER BY seq ${descending ? 'DESC' : 'ASC'} LIMIT ?`,
    ...params,
    pageSize + 1,
  )
  const page = rows.slice(0, pageSize)
  const more = rows.length > pageSize
  return {
    status: 200,
    body: {
      items: page.map(runSummaryOf),
      nextPageToken: more ? ctx.pageTokens.encode(scope, [page[page.length - 1]!.seq]) : '',
      totalCount,
    },
  }
}

export function runDetailHandler(ctx: SandboxContext, call: Call): Answer {
  const runId = call.params[0]!
  const row = getRow<RunRow>(
    ctx.db,
    'SELECT * FROM runs WHERE run_id = ? AND user_id = ?',
    runId,
    call.user.userId,
  )
  if (!row) throw notFound(`There is no run "${runId}" among your runs.`)
  const tasks = allRows<TaskRow>(
    ctx.db,
    'SELECT * FROM tasks WHERE run_id = ? ORDER BY row_index',
    runId,
  )
  const artifacts = allRows<ArtifactRow>(
    ctx.db,
    'SELECT * FROM artifacts WHERE run_id = ? ORDER BY row_index, seq',
    runId,
  )
  const market = marketContextOf(row)
  return {
    status: 200,
    body: {
      run: runSummaryOf(row),
      // Present on every run, as the interface lists it; empty for a template run.
      market: market ?? {},
      tasks: tasks.map(runTaskOf),
      artifacts: artifacts.map((a) => artifactOf(a, call.origin)),
    },
  }
}
