/**
 * Official template schemas, kept per environment so that preparing and validating workbooks
 * works without a network. A fetch refreshes the cache; when the service cannot be reached, the
 * cached copy is used and its age is reported.
 */
import { ApiError } from '../../service/errors'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { Db } from '../../storage/db'
import { SchemaCacheTable } from '../../storage/tables/schema-cache'
import { defined } from '../../../shared/defined'
import { builtInCopy, savedCopy, type CachedSchema } from './saved-schema'

export type { CachedSchema } from './saved-schema'

/** How long a saved schema that the service still answers the same is not written again. */
const UNCHANGED_KEPT_MS = 60 * 60 * 1000

/** The template's schema: fresh when the service answers, else the cached copy. */
async function templateSchema(
  table: SchemaCacheTable,
  connection: Connection,
  templateId: string,
  options: { signal?: AbortSignal | undefined; offline?: boolean; programSinceMs?: number } = {},
): Promise<CachedSchema> {
  const known = connection.builtIn ? builtInCopy(table, templateId, options.programSinceMs) : null
  if (known) return known
  if (!options.offline) {
    try {
      const schema = await connection.client.templateSchema(templateId, { signal: options.signal })
      const now = Date.now()
      // The same schema saved within the hour is kept as it is: a write (and its sync to disk)
      // on every validate would cost the command line more than the check itself.
      // One saved before this program was installed is written again, so that it counts as
      // this program's (builtInCopy).
      const saved = table.get(connection.historyKey, templateId)
      if (
        saved &&
        now - saved.fetchedAtMs < UNCHANGED_KEPT_MS &&
        saved.fetchedAtMs >= (options.programSinceMs ?? 0) &&
        JSON.stringify(saved.schema) === JSON.stringify(schema)
      )
        return { schema, fetchedAtMs: saved.fetchedAtMs, fromCache: false }
      table.put(connection.historyKey, templateId, { schema, fetchedAtMs: now })
      return { schema, fetchedAtMs: now, fromCache: false }
    } catch (error) {
      // Only a missing network falls back; a 404 or 401 is an answer the user must see.
      if (!(error instanceof ApiError && error.isUnreachable)) throw error
      const cached = savedCopy(table, connection.historyKey, templateId)
      if (cached) return cached
      throw error
    }
  }
  const cached = savedCopy(table, connection.historyKey, templateId)
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
  private readonly table: SchemaCacheTable

  /**
   * `programSinceMs`: when this program's code was written to disk, if the front door knows; a
   * schema the built-in Sandbox gave since then is used without asking it (see builtInCopy).
   */
  constructor(
    db: Db,
    private readonly programSinceMs?: number,
  ) {
    this.table = new SchemaCacheTable(db)
  }

  /** Fresh when the service answers, else the saved copy (said so by `fromCache`). */
  template(
    connection: Connection,
    templateId: string,
    options: { signal?: AbortSignal | undefined; offline?: boolean } = {},
  ): Promise<CachedSchema> {
    return templateSchema(this.table, connection, templateId, {
      ...options,
      ...defined({ programSinceMs: this.programSinceMs }),
    })
  }

  /** Templates saved for this environment, most recently fetched first. */
  ids(historyKey: string): string[] {
    return this.table.templateIds(historyKey, 200)
  }

  /** The saved copy only, or null. */
  cached(historyKey: string, templateId: string): CachedSchema | null {
    return savedCopy(this.table, historyKey, templateId)
  }
}
