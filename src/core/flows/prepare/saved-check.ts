/**
 * The offline check against a template of the built-in Sandbox whose schema it gave since this
 * program was installed, with only the history open: no engine, no service client and no zod.
 * It answers what checkWorkbook would (the Sandbox is not asked then either), for the command
 * line's usual validate, whose start was mostly loading the engine for it. Any other case (another
 * environment, no such saved copy) answers null and the caller makes the engine.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { BUILTIN_HISTORY_KEY, Environments } from '../../environments/environments'
import { openDb } from '../../storage/db'
import { SchemaCacheTable } from '../../storage/tables/schema-cache'
import { checkAgainst, templateFound, type CheckOptions, type OfflineCheck } from './check-against'
import { ColumnMappings } from './column-mappings'
import { builtInCopy } from './saved-schema'

export interface SavedCheck {
  /** The data folder (see resolveHome). */
  home: string
  /** The environment the user named (`--env`); without it, the default one. */
  envName?: string | undefined
  templateId: string
  /** When this program was written to disk (see Schemas); unknown: no check here. */
  programSinceMs: number | undefined
  path: string
  options: Omit<CheckOptions, 'target'>
}

/** The check, or null when it needs the engine (the environment or the schema is not at hand). */
export async function checkOnSavedSchema(check: SavedCheck): Promise<OfflineCheck | null> {
  const file = join(check.home, 'history.db')
  if (check.programSinceMs === undefined || !existsSync(file)) return null
  const db = openDb(file)
  try {
    const environments = new Environments(db)
    const env = environments.find(check.envName ?? environments.defaultName())
    if (!env?.builtIn) return null
    const cached = builtInCopy(new SchemaCacheTable(db), check.templateId, check.programSinceMs)
    if (!cached) return null
    const found = templateFound(check.templateId, cached)
    const services = { mappings: new ColumnMappings(db) }
    const { path, options } = check
    const result = await checkAgainst(services, BUILTIN_HISTORY_KEY, path, found, found.target, {
      ...options,
      target: found.target,
    })
    return { found, targetFromWorkbook: false, result }
  } finally {
    db.close()
  }
}
