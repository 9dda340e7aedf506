/**
 * The template schemas saved on this computer, as read without asking the service: the copy
 * kept for offline use, and the one the built-in Sandbox gave since this program was installed.
 * (schema-cache.ts asks the service and falls back to these; saved-check.ts reads only these.)
 */
import type { OfficialTemplateSchema } from '../../../shared/contract'
import { BUILTIN_HISTORY_KEY } from '../../environments/environments'
import type { SchemaCacheTable } from '../../storage/tables/schema-cache'

export interface CachedSchema {
  schema: OfficialTemplateSchema
  /** When it was fetched from the service (ms since the epoch). */
  fetchedAtMs: number
  /** True when the service could not be reached and the cached copy was used. */
  fromCache: boolean
}

/** The copy saved on this computer, or null. */
export function savedCopy(
  table: SchemaCacheTable,
  historyKey: string,
  templateId: string,
): CachedSchema | null {
  const saved = table.get(historyKey, templateId)
  return saved ? { ...saved, fromCache: true } : null
}

/**
 * The copy the built-in Sandbox gave since this program was installed, or null. The Sandbox's
 * templates are part of the program, so that copy is what it would answer now, and asking it
 * would only mean starting it.
 */
export function builtInCopy(
  table: SchemaCacheTable,
  templateId: string,
  programSinceMs: number | undefined,
): CachedSchema | null {
  if (programSinceMs === undefined) return null
  const saved = table.get(BUILTIN_HISTORY_KEY, templateId)
  return saved && saved.fetchedAtMs >= programSinceMs ? { ...saved, fromCache: false } : null
}
