/** Official Templates and User Templates: a template's input schema, running rows through it. */
import {
  officialTemplateSchemaSchema,
  paths,
  privateTemplateSchema,
  runRowsAcceptanceSchema,
  type OfficialTemplateSchema,
  type PrivateTemplate,
  type RunRowsAcceptance,
  type RunRowsBody,
} from '../../../shared/contract'
import type { CallOptions, Transport } from '../transport'

export function templateSchema(
  transport: Transport,
  templateId: string,
  options?: CallOptions,
): Promise<OfficialTemplateSchema> {
  return transport.request(
    {
      name: 'templateSchema',
      path: paths.templateSchema(templateId),
      answer: officialTemplateSchemaSchema,
    },
    options,
  )
}

/** POST runRows. Idempotent through body.clientRequestId, so it is retried. */
export function runRows(
  transport: Transport,
  templateId: string,
  body: RunRowsBody,
  options?: CallOptions,
): Promise<RunRowsAcceptance> {
  return transport.request(
    {
      name: 'runRows',
      path: paths.runRows(templateId),
      answer: runRowsAcceptanceSchema,
      body: { json: body },
    },
    options,
  )
}

/** GET users/me/templates/{id}: the user's private template with its versions. */
export function privateTemplate(
  transport: Transport,
  templateId: string,
  options?: CallOptions,
): Promise<PrivateTemplate> {
  return transport.request(
    {
      name: 'privateTemplate',
      path: paths.privateTemplate(templateId),
      answer: privateTemplateSchema,
    },
    options,
  )
}
