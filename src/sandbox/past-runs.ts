/**
 * The seed file's `pastRuns`: finished runs with their owner, target, rows, costs and times in
 * the past, so that history and usage can be tried over months. Each is stored as a run the
 * service made (its rows as tasks with no artifacts) under a stable id, so a restart with the
 * same database and seed adds nothing. README.md documents the shape.
 */
import * as z from 'zod'
import { type Db, getRow } from './db'
import { sha256Hex } from './ids'
import { storeRun, sourceColumns } from './run-creation'
import {
  listingSource,
  officialSource,
  readListing,
  readOfficialTemplate,
  type SourceOfRun,
} from './run-targets'

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

/** What a past run was made from (its source); the seed names a template or a listing that must exist. */
function sourceOf(db: Db, entry: PastRun, where: string): SourceOfRun {
  if (entry.templateId !== undefined) {
    const template = readOfficialTemplate(db, entry.templateId)
    if (!template) {
      throw new Error(`${where}.templateId "${entry.templateId}" is not an official template`)
    }
    return officialSource(template)
  }
  const id = entry.listingId ?? ''
  const found = readListing(db, id)
  if (!found) throw new Error(`${where}.listingId "${id}" is not a listing`)
  return listingSource(found.row, found.listing)
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
    const source = sourceOf(db, entry, `pastRuns[${index}]`)
    const failed = entry.failedRows ?? 0
    const succeeded = entry.rows - failed
    const estimated = entry.estimatedCostT ?? entry.rows * source.costPerTaskT
    const actual = entry.actualCostT ?? succeeded * source.costPerTaskT
    storeRun(db, {
      ...sourceColumns(source, entry.rows),
      run_id: runId,
      user_id: entry.ownerUserId,
      status: succeeded > 0 ? 'succeeded' : 'failed',
      input_filename: entry.inputFilename ?? '',
      completed_tasks: succeeded,
      failed_tasks: failed,
      estimated_cost_t: estimated,
      actual_cost_t: actual,
      first_error_message: failed > 0 ? 'A row failed in this earlier run.' : '',
      created_at_unix: entry.createdAtUnix,
      started_at_unix: entry.createdAtUnix,
      completed_at_unix: entry.completedAtUnix,
      updated_at_unix: entry.completedAtUnix,
      ...(source.market && {
        run_transaction_id: `txn_${runId}`,
        transaction_status: 'settled',
        estimated_execution_cost_t: estimated,
        actual_execution_cost_t: actual,
        estimated_buyer_payable_t: estimated,
        final_buyer_payable_t: actual,
      }),
    })
    for (let row = 0; row < entry.rows; row++) {
      task.run(`${runId}_task_${row}`, runId, row, row < succeeded ? 'succeeded' : 'failed')
    }
  })
}
