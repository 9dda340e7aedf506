/**
 * Making a run: the rows checked against the schema and the caller's uploads, the callback
 * address checked, and the run stored with one pending task per row.
 */
import type { InputRow, ListingInputSchema } from '../shared/contract'
import { type AssetRow, type Db, type RunRow, getRow, run } from './db'
import { badRequest } from './http'
import { newId, unixNow, uuidFrom } from './ids'
import { assetReferences, checkRows, describeProblems, spreadRunValues } from './rows'
import type { SourceOfRun } from './run-targets'

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
  source: SourceOfRun
  callbackUrl: string
  rows: InputRow[]
}

/** Column names of the runs table and their values, for one row. */
export type RunRowValues = Partial<Omit<RunRow, 'seq'>>

/** What a run's row records of its source and size, the same for every run however made. */
export function sourceColumns(source: SourceOfRun, tasks: number): RunRowValues {
  const market = source.market
  return {
    source_type: source.sourceType,
    skill: source.skill,
    artifact_mode: source.artifactMode,
    schema_json: JSON.stringify(source.schema),
    display_name: `${source.name} (${tasks} ${tasks === 1 ? 'row' : 'rows'})`,
    template_key: source.key,
    template_name: source.name,
    template_uuid: uuidFrom(source.key),
    definition_hash: source.definitionHash,
    total_tasks: tasks,
    task_cost_t: source.costPerTaskT,
    ...(market && {
      listing_id: source.key,
      listing_version_id: market.listingVersionId,
      skill_name: source.name,
      pricing_rule_version: market.pricingRuleVersion,
      task_fixed_fee_t: source.costPerTaskT,
    }),
  }
}

/**
 * Stores one row of the runs table; a column not given takes the table's default (NULL for a
 * listing's columns). The column names are the code's own, never a caller's text.
 */
export function storeRun(db: Db, columns: RunRowValues): void {
  const names = Object.keys(columns)
  run(
    db,
    `INSERT INTO runs (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    ...Object.values(columns),
  )
}

/** Stores a queued run with one pending task per row; call inside a transaction. */
export function insertRun(db: Db, spec: NewRun): RunRow {
  const runId = newId('run')
  const now = unixNow()
  const { source } = spec
  const estimated = spec.rows.length * source.costPerTaskT
  storeRun(db, {
    ...sourceColumns(source, spec.rows.length),
    run_id: runId,
    user_id: spec.userId,
    status: 'queued',
    input_filename: '',
    estimated_cost_t: estimated,
    created_at_unix: now,
    updated_at_unix: now,
    callback_url: spec.callbackUrl,
    ...(source.market && {
      run_transaction_id: newId('txn'),
      transaction_status: 'authorized',
      estimated_execution_cost_t: estimated,
      actual_execution_cost_t: 0,
      estimated_buyer_payable_t: estimated,
      final_buyer_payable_t: 0,
    }),
  })
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
