/**
 * The seed file's `pastRuns`: finished runs with their owner, target, rows, costs and times in
 * the past, so that history and usage can be tried over months. Each is stored as a run the
 * service made (its rows as tasks with no artifacts) under a stable id, so a restart with the
 * same database and seed adds nothing. README.md documents the shape.
 */
import * as z from 'zod'
import { creatorListingSchema } from '../shared/contract'
import { type Db, type ListingRow, type OfficialTemplateRow, getRow, run } from './db'
import { sha256Hex, uuidFrom } from './ids'

const count = z.number().int().min(0)

export const pastRunSchema = z
  .strictObject({
    ownerUserId: z.number().int().positive(),
    /** An official template of the seed (or the demo), or `listingId`: one of the two. */
    templateId: z.string().min(1).optional(),
    listingId: z.string().min(1).optional(),
    /** Default: `run_past_` and a hash of the entry, the same at every start. */
    runId: z.string().min(1).optional(),
    inputFilename: z.string().optional(),
    rows: z.number().int().min(1).max(100_000),
    /** How many rows failed (default 0); the run failed when none succeeded. */
    failedRows: count.optional(),
    /** Default: rows x the target's cost per task. */
    estimatedCostT: count.optional(),
    /** Default: succeeded rows x the target's cost per task. */
    actualCostT: count.optional(),
    createdAtUnix: z.number().int().positive(),
    completedAtUnix: z.number().int().positive(),
  })
  .refine((r) => (r.templateId === undefined) !== (r.listingId === undefined), {
    message: 'give either templateId or listingId',
  })
  .refine((r) => r.completedAtUnix >= r.createdAtUnix, {
    message: 'completedAtUnix is before createdAtUnix',
  })
  .refine((r) => (r.failedRows ?? 0) <= r.rows, { message: 'failedRows is more than rows' })

export type PastRun = z.output<typeof pastRunSchema>

/** What a past run was made from, as the runs table names it. */
interface PastTarget {
  sourceType: 'official_template' | 'market'
  skill: string
  artifactMode: string
  schemaJson: string
  key: string
  name: string
  definitionHash: string
  costPerTaskT: number
  listingVersionId: string | null
}

function targetOf(db: Db, entry: PastRun, where: string): PastTarget {
  if (entry.templateId !== undefined) {
    const t = getRow<OfficialTemplateRow>(
      db,
      'SELECT * FROM official_templates WHERE template_id = ?',
      entry.templateId,
    )
    if (!t) throw new Error(`${where}.templateId "${entry.templateId}" is not an official template`)
    const name = (JSON.parse(t.schema_json) as { name?: string }).name || t.template_id
    return {
      sourceType: 'official_template',
      skill: t.skill,
      artifactMode: t.artifact_mode,
      schemaJson: t.schema_json,
      key: t.template_id,
      name,
      definitionHash: t.definition_hash,
      costPerTaskT: t.task_cost_t,
      listingVersionId: null,
    }
  }
  const id = entry.listingId ?? ''
  const row = getRow<ListingRow>(db, 'SELECT * FROM market_listings WHERE listing_id = ?', id)
  if (!row) throw new Error(`${where}.listingId "${id}" is not a listing`)
  const listing = creatorListingSchema.parse(JSON.parse(row.listing_json))
  return {
    sourceType: 'market',
    skill: row.skill,
    artifactMode: row.artifact_mode,
    schemaJson: row.schema_json,
    key: listing.id,
    name: listing.displayName || listing.id,
    definitionHash: listing.packageHash,
    costPerTaskT: listing.taskFixedFeeT,
    listingVersionId: listing.listingVersionId,
  }
}

/** Stores the past runs not stored yet; call inside the seed's transaction. */
export function storePastRuns(db: Db, entries: readonly PastRun[]): void {
  const task = db.prepare(
    `INSERT INTO tasks (task_id, run_id, row_index, status, row_json) VALUES (?, ?, ?, ?, '{}')`,
  )
  entries.forEach((entry, index) => {
    const runId =
      entry.runId ?? `run_past_${sha256Hex(`${index}:${JSON.stringify(entry)}`).slice(0, 24)}`
    if (getRow(db, 'SELECT 1 AS x FROM runs WHERE run_id = ?', runId)) return
    const target = targetOf(db, entry, `pastRuns[${index}]`)
    const failed = entry.failedRows ?? 0
    const succeeded = entry.rows - failed
    const estimated = entry.estimatedCostT ?? entry.rows * target.costPerTaskT
    const actual = entry.actualCostT ?? succeeded * target.costPerTaskT
    const market = target.sourceType === 'market'
    run(
      db,
      `INSERT INTO runs (run_id, user_id, status, source_type, skill, artifact_mode, schema_json,
         display_name, template_key, template_name, template_uuid, definition_hash, input_filename,
         total_tasks, completed_tasks, failed_tasks, task_cost_t, estimated_cost_t, actual_cost_t,
         first_error_message, created_at_unix, started_at_unix, completed_at_unix, updated_at_unix,
         listing_id, listing_version_id, run_transaction_id, skill_name, transaction_status,
         pricing_rule_version, task_fixed_fee_t, estimated_execution_cost_t,
         actual_execution_cost_t, estimated_buyer_payable_t, final_buyer_payable_t)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      runId,
      entry.ownerUserId,
      succeeded > 0 ? 'succeeded' : 'failed',
      target.sourceType,
      target.skill,
      target.artifactMode,
      target.schemaJson,
      `${target.name} (${entry.rows} ${entry.rows === 1 ? 'row' : 'rows'})`,
      target.key,
      target.name,
      uuidFrom(target.key),
      target.definitionHash,
      entry.inputFilename ?? '',
      entry.rows,
      succeeded,
      failed,
      target.costPerTaskT,
      estimated,
      actual,
      failed > 0 ? 'A row failed in this earlier run.' : '',
      entry.createdAtUnix,
      entry.createdAtUnix,
      entry.completedAtUnix,
      entry.completedAtUnix,
      market ? target.key : null,
      target.listingVersionId,
      market ? `txn_${runId}` : null,
      market ? target.name : null,
      market ? 'settled' : null,
      market ? 'flat-task-fee-1' : null,
      market ? target.costPerTaskT : null,
      market ? estimated : null,
      market ? actual : null,
      market ? estimated : null,
      market ? actual : null,
    )
    for (let row = 0; row < entry.rows; row++) {
      task.run(`${runId}_task_${row}`, runId, row, row < succeeded ? 'succeeded' : 'failed')
    }
  })
}
