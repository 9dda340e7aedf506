/**
 * The `column_mappings` table: the column mappings a user confirmed, per environment, template
 * (or listing) and set of the sheet's headers, so the same sheet maps itself the next time.
 */
import type { Db } from '../db'
import { columns, parseJsonColumn, readRows } from '../read-row'

const mappingRow = columns({ headers_key: 'text', mapping_json: 'text' })

/** A saved mapping: header -> field key, or null for a column not used. */
function isMapping(value: unknown): value is Record<string, string | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return Object.values(value).every((key) => key === null || typeof key === 'string')
}

export class ColumnMappingsTable {
  constructor(private readonly db: Db) {}

  /** Every mapping saved for a target, by headers key (one that no longer reads is left out). */
  forTarget(historyKey: string, target: string): Record<string, Record<string, string | null>> {
    const rows = this.db
      .prepare(
        'SELECT headers_key, mapping_json FROM column_mappings WHERE origin = ? AND target = ? ORDER BY saved_at_ms DESC LIMIT 200',
      )
      .all(historyKey, target)
    const out: Record<string, Record<string, string | null>> = {}
    for (const row of readRows(mappingRow, rows)) {
      const mapping = parseJsonColumn(row.mapping_json)
      if (isMapping(mapping)) out[row.headers_key] = mapping
    }
    return out
  }

  /** Saves (or replaces) the mapping for one set of headers. */
  put(
    historyKey: string,
    target: string,
    headersKey: string,
    mapping: Record<string, string | null>,
    savedAtMs: number,
  ) {
    this.db
      .prepare(
        `INSERT INTO column_mappings (origin, target, headers_key, mapping_json, saved_at_ms) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(origin, target, headers_key) DO UPDATE SET mapping_json = excluded.mapping_json, saved_at_ms = excluded.saved_at_ms`,
      )
      .run(historyKey, target, headersKey, JSON.stringify(mapping), savedAtMs)
  }
}
