/** The words the New run screen uses for a form's fields and a file's size. */
import type { SchemaField } from '../../../shared/contract'
import { kindLabel } from '../../runs/run-view'

const TYPE_WORDS: Record<string, string> = {
  string: 'Short text',
  text: 'Text',
  integer: 'Whole number',
  number: 'Number',
  boolean: 'Yes or no',
  date: 'Date (e.g. 2026-03-05)',
  enum: 'One of a list',
  url: 'Web address',
  email: 'Email address',
  file: 'File',
}

/** A field's kind of value in words. */
export function describeType(field: Pick<SchemaField, 'type' | 'multiValue'>): string {
  const base = TYPE_WORDS[field.type] ?? field.type
  return field.multiValue ? `${base}, several allowed (separate with ;)` : base
}

const KIND_WORDS: Record<string, string> = {
  asset: 'a file from this computer',
  url: 'a web address',
  text: 'text typed in the cell',
}

/** What a file field accepts, in words. */
export function describeFileKinds(
  field: Pick<SchemaField, 'acceptedInputKinds' | 'acceptedMimeTypes'>,
): string {
  const kinds = field.acceptedInputKinds.map((k) => KIND_WORDS[k] ?? k)
  const parts: string[] = []
  if (kinds.length) parts.push(`Takes ${kinds.join(', or ')}`)
  // Kinds as people say them ("PDF document"); the service's MIME types are the workshop's words.
  const types = [...new Set(field.acceptedMimeTypes.map(kindLabel))]
  if (types.length) parts.push(`of type ${types.join(', ')}`)
  return parts.join(' ')
}
