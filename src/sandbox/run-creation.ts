/**
 * Making a run: the rows checked against the schema and the caller's uploads, the callback
 * address checked, and the run stored with one pending task per row.
 */
import type { InputRow, ListingInputSchema } from '../shared/contract'
import { type AssetRow, type Db, type RunRow, getRow, run } from './db'
import { badRequest } from './http'
import { newId, unixNow, uuidFrom } from './ids'
import { assetReferences, checkRows, describeProblems, spreadRunValues } from './rows'

export const PRICING_RULE_VERSION_DEFAULT = 'flat-task-fee-1'

/**
 * Checks rows against a schema and the caller's uploads; 400 naming the problems. More than
 * `maxRows` is refused in words that name the limit ("send at most N per request").
 */
export function acceptRows(
  db: Db,
  userId: number,
  schema: ListingInputSchema,
  rows: InputRow[],
  limits: { listName: string; maxRows: number },
): InputRow[] {
  const { listName, maxRows } = limits
  if (rows.length === 0) throw badRequest(`${listName} is empty; send at least one row.`)
  if (rows.length > maxRows) {
    throw badRequest(`${listName} has ${rows.length} rows; send at most ${maxRows} per request.`)
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

export interface NewRun {
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
export function insertRun(db: Db, spec: NewRun): RunRow {
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

export function checkCallbackUrl(value: string | undefined): string {
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
