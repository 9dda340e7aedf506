/**
 * The most rows the service takes in one request, per environment: learnt from its refusal when
 * its words say it ("send at most 10000 per request"), or set by the user (`env rows`). Kept in
 * the settings table, so every front door on this computer splits a large sheet the same way.
 * With none known a sheet goes whole, and a refusal that names a limit teaches it.
 */
import { ApiError } from '../../service'
import type { Db } from '../../storage/db'
import { SettingsTable } from '../../storage/tables/settings'

export interface RowLimit {
  rows: number
  /** `learnt`: from the service's refusal; `set`: by the user, and never replaced by a lesson. */
  source: 'learnt' | 'set'
}

/** The largest limit taken from anywhere: beyond it a number is not believed. */
export const MAX_ROW_LIMIT = 10_000_000

/** A whole number of rows from 1 to MAX_ROW_LIMIT, or null. */
function rowCount(value: unknown): number | null {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MAX_ROW_LIMIT
    ? value
    : null
}

/**
 * The limit a refusal names, or null. The service's words are untrusted: only a short run of
 * digits (with thousands separators) right after "at most" in a refusal about rows is read.
 */
export function limitInRefusal(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.kind !== 'http') return null
  if (error.status !== 400 && error.status !== 413 && error.status !== 422) return null
  const text = error.serverMessage.slice(0, 2_000)
  if (!/\brows?\b/i.test(text)) return null
  const match = /\bat most ([0-9][0-9,]{0,12})\b/i.exec(text)
  if (!match) return null
  const digits = match[1]!.replace(/,/g, '')
  return digits.length > 8 ? null : rowCount(Number(digits))
}

export class RowLimits {
  private readonly table: SettingsTable

  constructor(db: Db) {
    this.table = new SettingsTable(db)
  }

  private key(historyKey: string): string {
    return JSON.stringify(['rowsPerRequest', historyKey])
  }

  /** The limit known for this environment, or null (a sheet goes whole). */
  of(historyKey: string): RowLimit | null {
    let kept: unknown
    try {
      kept = JSON.parse(this.table.get(this.key(historyKey)) ?? 'null')
    } catch {
      return null
    }
    if (typeof kept !== 'object' || kept === null) return null
    const { rows, source } = kept as { rows?: unknown; source?: unknown }
    const count = rowCount(rows)
    if (count === null || (source !== 'learnt' && source !== 'set')) return null
    return { rows: count, source }
  }

  /** Sets the limit by hand; null forgets it (learnt again from the next refusal). */
  set(historyKey: string, rows: number | null) {
    const value = rows === null ? null : JSON.stringify({ rows: rowCount(rows), source: 'set' })
    this.table.set(this.key(historyKey), value)
  }

  /** Keeps what a refusal said, unless the user set a limit that is lower still. */
  learn(historyKey: string, rows: number) {
    const known = this.of(historyKey)
    if (known?.source === 'set' && known.rows <= rows) return
    this.table.set(this.key(historyKey), JSON.stringify({ rows, source: 'learnt' }))
  }
}
