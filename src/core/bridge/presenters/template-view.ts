/** A template's schema as the New run screen shows it. */
import type { TemplateView } from '../../../shared/bridge'
import type { Connection } from '../../environments/connection'
import type { CallbackAddresses } from '../../flows/prepare/callback-addresses'
import type { Schemas } from '../../flows/prepare/schema-cache'

/** A template's schema for the screen (fresh when the service answers, else the saved copy). */
export async function templateView(
  services: {
    schemas: Pick<Schemas, 'template'>
    callbackAddresses: Pick<CallbackAddresses, 'forTemplate'>
  },
  connection: Connection,
  templateId: string,
): Promise<TemplateView> {
  const cached = await services.schemas.template(connection, templateId)
  const s = cached.schema
  return {
    environment: connection.name,
    templateId: s.templateId || templateId,
    name: s.name || templateId,
    description: s.description,
    version: s.version,
    instructions: s.instructions,
    columns: s.columns,
    fields: s.fields,
    fetchedAtMs: cached.fetchedAtMs,
    fromCache: cached.fromCache,
    callbackUrl: services.callbackAddresses.forTemplate(connection.historyKey, templateId),
  }
}
