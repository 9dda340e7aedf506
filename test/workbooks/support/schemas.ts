// Small template schemas for the reader's tests: the fields given, each its own column under
// its label, in the order given.
import {
  officialTemplateSchemaSchema,
  type OfficialTemplateSchema,
} from '../../../src/shared/contract'

export function schemaOf(
  templateId: string,
  name: string,
  fields: { key: string; label: string; [more: string]: unknown }[],
): OfficialTemplateSchema {
  return officialTemplateSchemaSchema.parse({
    templateId,
    name,
    version: '1',
    fields,
    columns: fields.map((f, order) => ({ fieldKey: f.key, headerLabel: f.label, order })),
  })
}
