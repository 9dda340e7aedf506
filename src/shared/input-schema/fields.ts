import type { SchemaField } from '../contract'

/** A row field of the given type with every optional part empty (seeds, generic columns). */
export function plainField(
  key: string,
  label: string,
  type: string,
  extra: Partial<SchemaField> = {},
): SchemaField {
  return {
    key,
    label,
    type,
    scope: 'row',
    required: false,
    multiValue: false,
    acceptedInputKinds: [],
    acceptedMimeTypes: [],
    enumValues: [],
    examples: [],
    inputHint: '',
    businessHint: '',
    ...extra,
  }
}
