/**
 * Official template schemas, kept per environment so that preparing and validating workbooks
 * works without a network. A fetch refreshes the cache; when the service cannot be reached, the
 * cached copy is used and its age is reported.
 */
import { officialTemplateSchemaSchema, type OfficialTemplateSchema } from '../../../shared/contract'
import { ApiError } from '../../service'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { Db } from '../../storage/db'

export interface CachedSchema {
  schema: OfficialTemplateSchema
  /** When it was fetched from the service (ms since the epoch). */
  fetchedAtMs: number
  /** True when the service could not be reached and the cached copy was used. */
  fromCache: boolean
}

function readCachedSchema(db: Db, origin: string, templateId: string): CachedSchema | null {
  const row = db
    .prepare(
      'SELECT schema_json, fetched_at_ms FROM schema_cache WHERE origin = ? AND template_id = ?',
    )
    .get(origin, templateId) as { schema_json: string; fetched_at_ms: number } | undefined
  if (!row) return null
  const parsed = officialTemplateSchemaSchema.safeParse(JSON.parse(row.schema_json))
  if (!parsed.success) return null
  return { schema: parsed.data, fetchedAtMs: row.fetched_at_ms, fromCache: true }
}

/** The ids of the templates whose schema is saved for an environment, newest first. */
function cachedTemplateIds(db: Db, origin: string): string[] {
  const rows = db
    .prepare(
      'SELECT template_id FROM schema_cache WHERE origin = ? ORDER BY fetched_at_ms DESC LIMIT 200',
    )
    .all(origin) as { template_id: string }[]
  return rows.map((r) => r.template_id)
}

/** The template's schema: fresh when the service answers, else the cached copy. */
async function templateSchema(
  db: Db,
  connection: Connection,
  templateId: string,
  options: { signal?: AbortSignal | undefined; offline?: boolean } = {},
): Promise<CachedSchema> {
  if (!options.offline) {
    try {
      const schema = await connection.client.templateSchema(templateId, { signal: options.signal })
      const now = Date.now()
      db.prepare(
        `INSERT INTO schema_cache (origin, template_id, schema_json, fetched_at_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT(origin, template_id) DO UPDATE SET schema_json = excluded.schema_json, fetched_at_ms = excluded.fetched_at_ms`,
      ).run(connection.historyKey, templateId, JSON.stringify(schema), now)
      return { schema, fetchedAtMs: now, fromCache: false }
    } catch (error) {
      // Only a missing network falls back; a 404 or 401 is an answer the user must see.
      if (!(error instanceof ApiError && error.isUnreachable)) throw error
      const cached = readCachedSchema(db, connection.historyKey, templateId)
      if (cached) return cached
      throw error
    }
  }
  const cached = readCachedSchema(db, connection.historyKey, templateId)
  if (!cached) {
    throw new EngineError(
      'not-found',
      `The schema of template “${templateId}” is not saved on this computer yet.`,
      'Connect to the service once (so it can be fetched), then it works offline.',
    )
  }
  return cached
}

/** Official template schemas kept per environment for offline use (the `schema_cache` table). */
export class Schemas {
  constructor(private readonly db: Db) {}

  /** Fresh when the service answers, else the saved copy (said so by `fromCache`). */
  template(
    connection: Connection,
    templateId: string,
    options: { signal?: AbortSignal | undefined; offline?: boolean } = {},
  ): Promise<CachedSchema> {
    return templateSchema(this.db, connection, templateId, options)
  }

  /** Templates saved for this environment, most recently fetched first. */
  ids(historyKey: string): string[] {
    return cachedTemplateIds(this.db, historyKey)
  }

  /** The saved copy only, or null. */
  cached(historyKey: string, templateId: string): CachedSchema | null {
    return readCachedSchema(this.db, historyKey, templateId)
  }
}

/** "3 hours ago"-style age of a cached schema. */
export function describeAge(fetchedAtMs: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - fetchedAtMs) / 60_000))
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`
  const days = Math.round(hours / 24)
  return `${days} days ago`
}
