/**
 * The usage tables: `usage_runs` (the service's runs as last read, per environment's history
 * key), `usage_reads` (when they were read) and `usage_limits` (the monthly spending limit per
 * environment name).
 */
import { z } from 'zod'
import type { UsageRun } from '../../../shared/usage/figures'
import { transaction, type Db } from '../db'
import { selectRow, selectRows } from '../read-row'

const runRow = z.object({
  run_id: z.string(),
  name: z.string(),
  status: z.string(),
  target_kind: z.enum(['template', 'listing']),
  target_id: z.string(),
  target_name: z.string(),
  estimated_cost_t: z.number(),
  actual_cost_t: z.number(),
  rows: z.number(),
  succeeded_rows: z.number(),
  created_at_unix: z.number(),
  completed_at_unix: z.number(),
  finished: z.number(),
})

const RUN_COLUMNS =
  'run_id, name, status, target_kind, target_id, target_name, estimated_cost_t, actual_cost_t, rows, succeeded_rows, created_at_unix, completed_at_unix, finished'

function usageRunOf(row: z.output<typeof runRow>): UsageRun {
  return {
    runId: row.run_id,
    name: row.name,
    status: row.status,
    targetKind: row.target_kind,
    targetId: row.target_id,
    targetName: row.target_name,
    estimatedCostT: row.estimated_cost_t,
    actualCostT: row.actual_cost_t,
    rows: row.rows,
    succeededRows: row.succeeded_rows,
    createdAtUnix: row.created_at_unix,
    completedAtUnix: row.completed_at_unix,
    finished: row.finished === 1,
  }
}

export class UsageTables {
  constructor(private readonly db: Db) {}

  /** Replaces what was kept of an environment's runs with the list just read. */
  replaceRuns(historyKey: string, runs: readonly UsageRun[], readAtMs: number) {
    const insert = this.db.prepare(
      `INSERT INTO usage_runs (origin, ${RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    transaction(this.db, () => {
      this.db.prepare('DELETE FROM usage_runs WHERE origin = ?').run(historyKey)
      for (const r of runs) {
        insert.run(
          historyKey,
          r.runId,
          r.name,
          r.status,
          r.targetKind,
          r.targetId,
          r.targetName,
          r.estimatedCostT,
          r.actualCostT,
          r.rows,
          r.succeededRows,
          r.createdAtUnix,
          r.completedAtUnix,
          r.finished ? 1 : 0,
        )
      }
      this.db
        .prepare(
          `INSERT INTO usage_reads (origin, read_at_ms) VALUES (?, ?)
           ON CONFLICT(origin) DO UPDATE SET read_at_ms = excluded.read_at_ms`,
        )
        .run(historyKey, readAtMs)
    })
  }

  /** The runs kept, newest first, and when they were read (null: never). */
  runs(historyKey: string): { runs: UsageRun[]; readAtMs: number | null } {
    const read = selectRow(
      this.db,
      z.object({ read_at_ms: z.number() }),
      'SELECT read_at_ms FROM usage_reads WHERE origin = ?',
      [historyKey],
    )
    const rows = selectRows(
      this.db,
      runRow,
      `SELECT ${RUN_COLUMNS} FROM usage_runs WHERE origin = ? ORDER BY created_at_unix DESC`,
      [historyKey],
    )
    return { runs: rows.map(usageRunOf), readAtMs: read?.read_at_ms ?? null }
  }

  limit(environment: string): number | null {
    const row = selectRow(
      this.db,
      z.object({ monthly_limit_t: z.number() }),
      'SELECT monthly_limit_t FROM usage_limits WHERE environment = ?',
      [environment],
    )
    return row?.monthly_limit_t ?? null
  }

  /** Sets the monthly limit (null: no limit). */
  setLimit(environment: string, limitT: number | null) {
    if (limitT === null) {
      this.db.prepare('DELETE FROM usage_limits WHERE environment = ?').run(environment)
      return
    }
    this.db
      .prepare(
        `INSERT INTO usage_limits (environment, monthly_limit_t) VALUES (?, ?)
         ON CONFLICT(environment) DO UPDATE SET monthly_limit_t = excluded.monthly_limit_t`,
      )
      .run(environment, limitT)
  }
}
