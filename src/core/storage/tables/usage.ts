/**
 * The usage tables: `usage_runs` (the service's runs as last read and when, one list per
 * environment's history key) and `usage_limits` (the monthly spending limit per environment
 * name).
 */
import { amountT, type AmountT } from '../../../shared/format/amounts'
import * as z from 'zod'
import type { UsageRun } from '../../../shared/usage/figures'
import type { Db } from '../db'
import { parseJsonColumn, selectRow } from '../read-row'

/**
 * One kept run, checked field by field: a list of 10,000 is read each time the Usage screen
 * opens, where a schema's walk of every entry cost more than the figures made from them.
 */
function isUsageRun(value: unknown): value is UsageRun {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return (
    typeof r.runId === 'string' &&
    typeof r.name === 'string' &&
    typeof r.status === 'string' &&
    (r.targetKind === 'template' || r.targetKind === 'listing') &&
    typeof r.targetId === 'string' &&
    typeof r.targetName === 'string' &&
    typeof r.estimatedCostT === 'number' &&
    typeof r.actualCostT === 'number' &&
    typeof r.rows === 'number' &&
    typeof r.succeededRows === 'number' &&
    typeof r.createdAtUnix === 'number' &&
    typeof r.completedAtUnix === 'number' &&
    typeof r.finished === 'boolean'
  )
}

const keptRow = z.object({ runs_json: z.string(), read_at_ms: z.number() })

export class UsageTables {
  constructor(private readonly db: Db) {}

  /** Replaces what was kept of an environment's runs with the list just read. */
  replaceRuns(historyKey: string, runs: readonly UsageRun[], readAtMs: number) {
    this.db
      .prepare(
        `INSERT INTO usage_runs (origin, runs_json, read_at_ms) VALUES (?, ?, ?)
         ON CONFLICT(origin) DO UPDATE SET runs_json = excluded.runs_json, read_at_ms = excluded.read_at_ms`,
      )
      .run(historyKey, JSON.stringify(runs), readAtMs)
  }

  /** The runs kept (entries that no longer read as runs left out), and when they were read. */
  runs(historyKey: string): { runs: UsageRun[]; readAtMs: number | null } {
    const row = selectRow(
      this.db,
      keptRow,
      'SELECT runs_json, read_at_ms FROM usage_runs WHERE origin = ?',
      [historyKey],
    )
    if (!row) return { runs: [], readAtMs: null }
    const list = parseJsonColumn(row.runs_json)
    return { runs: Array.isArray(list) ? list.filter(isUsageRun) : [], readAtMs: row.read_at_ms }
  }

  limit(environment: string): AmountT | null {
    const row = selectRow(
      this.db,
      z.object({ monthly_limit_t: z.number() }),
      'SELECT monthly_limit_t FROM usage_limits WHERE environment = ?',
      [environment],
    )
    return row ? amountT(row.monthly_limit_t) : null
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
