/** The `schema_cache` table: official template schemas saved per environment for offline use. */
import type { OfficialTemplateSchema } from '../../../shared/contract'
import { readTemplateSchema } from '../../../shared/contract/template-schema-reader'
import type { Db } from '../db'
import { columns, parseJsonColumn, selectRow, selectRows } from '../read-row'

export interface SavedSchema {
  schema: OfficialTemplateSchema
  /** When it was fetched from the service (ms since the epoch). */
  fetchedAtMs: number
}

const schemaRow = columns({ schema_json: 'text', fetched_at_ms: 'number' })
const templateIdRow = columns({ template_id: 'text' })

export class SchemaCacheTable {
  constructor(private readonly db: Db) {}

  /** The saved schema, or null when none is saved or it no longer reads as a schema. */
  get(historyKey: string, templateId: string): SavedSchema | null {
    const sql =
      'SELECT schema_json, fetched_at_ms FROM schema_cache WHERE origin = ? AND template_id = ?'
    const row = selectRow(this.db, schemaRow, sql, [historyKey, templateId])
    if (!row) return null
    // Read as the contract reads a schema, without zod (a small validate loads none).
    const schema = readTemplateSchema(parseJsonColumn(row.schema_json))
    return schema ? { schema, fetchedAtMs: row.fetched_at_ms } : null
  }

  /** The ids of the saved templates, most recently fetched first. */
  templateIds(historyKey: string, limit: number): string[] {
    const sql =
      'SELECT template_id FROM schema_cache WHERE origin = ? ORDER BY fetched_at_ms DESC LIMIT ?'
    return selectRows(this.db, templateIdRow, sql, [historyKey, limit]).map((r) => r.template_id)
  }

  /** Saves (or replaces) a template's schema. */
  put(historyKey: string, templateId: string, saved: SavedSchema) {
    this.db
      .prepare(
        `INSERT INTO schema_cache (origin, template_id, schema_json, fetched_at_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT(origin, template_id) DO UPDATE SET schema_json = excluded.schema_json, fetched_at_ms = excluded.fetched_at_ms`,
      )
      .run(historyKey, templateId, JSON.stringify(saved.schema), saved.fetchedAtMs)
  }
}
