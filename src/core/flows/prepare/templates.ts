/**
 * Which official templates this computer knows for a connection: the built-in Sandbox's own, then
 * every template whose schema was saved for offline use.
 */
import type { TemplateChoice } from '../../../shared/bridge'
import { ApiError } from '../../service'
import { BUILTIN_SANDBOX_TEMPLATE_IDS } from '../../environments/builtin-sandbox'
import type { Connection } from '../../environments/connection'
import type { Schemas } from './schema-cache'

/** The official templates the app knows for a connection: the Sandbox's own, then cached ones. */
export async function knownTemplates(
  services: { schemas: Pick<Schemas, 'template' | 'ids' | 'cached'> },
  connection: Connection,
): Promise<{ items: TemplateChoice[]; offline: boolean }> {
  const items: TemplateChoice[] = []
  let offline = false
  const seen = new Set<string>()
  if (connection.builtIn) {
    const found = await Promise.all(
      BUILTIN_SANDBOX_TEMPLATE_IDS.map((id) =>
        services.schemas.template(connection, id).catch((error: unknown) => {
          if (error instanceof ApiError && error.isUnreachable) offline = true
          return null
        }),
      ),
    )
    found.forEach((cached, i) => {
      const id = BUILTIN_SANDBOX_TEMPLATE_IDS[i]!
      seen.add(id)
      if (cached?.fromCache) offline = true
      items.push({
        templateId: id,
        name: cached?.schema.name || id,
        description: cached?.schema.description ?? '',
        source: 'builtin',
        fetchedAtMs: cached?.fetchedAtMs ?? null,
      })
    })
  }
  for (const id of services.schemas.ids(connection.historyKey)) {
    if (seen.has(id)) continue
    const cached = services.schemas.cached(connection.historyKey, id)
    if (!cached) continue
    items.push({
      templateId: id,
      name: cached.schema.name || id,
      description: cached.schema.description,
      source: 'cached',
      fetchedAtMs: cached.fetchedAtMs,
    })
  }
  return { items, offline }
}
