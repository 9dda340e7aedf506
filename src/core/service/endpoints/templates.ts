/** Official Templates and User Templates: a template's input schema, running rows through it. */
import {
  officialTemplateSchemaSchema,
  paths,
  privateTemplateSchema,
  runRowsAcceptanceSchema,
  type RunRowsBody,
} from '../../../shared/contract'
import { getById, postRowsTo } from './calls'

export const templateSchema = getById(
  'templateSchema',
  paths.templateSchema,
  officialTemplateSchemaSchema,
)

/** POST runRows, its rows streamed. Idempotent through body.clientRequestId, so it is retried. */
export const runRows = postRowsTo<typeof runRowsAcceptanceSchema, RunRowsBody, 'rows'>(
  'runRows',
  paths.runRows,
  runRowsAcceptanceSchema,
  'rows',
)

/** GET users/me/templates/{id}: the user's private template with its versions. */
export const privateTemplate = getById(
  'privateTemplate',
  paths.privateTemplate,
  privateTemplateSchema,
)
