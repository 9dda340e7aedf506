/**
 * Run-scoped fields (one value for the whole run): taken from the sheet's column when it has
 * one, else from the Run settings sheet or the app's form, checked once and given to every row
 * (row-spill.ts's patchRow).
 */
import type { SchemaField } from '../../../shared/contract'
import { coerceCell, type CellValue, type WireValue } from '../../../shared/input-schema'
import { SHEETS } from '../sheets'
import type { RowPatch } from './row-spill'

/**
 * The run values every row takes: `first` holds each run-scoped field's first value in a row
 * (as the row holds it once patched), which fills the rows without one.
 */
export function runValuePatch(
  fields: Iterable<SchemaField>,
  first: ReadonlyMap<string, WireValue>,
  runValues: Map<string, CellValue>,
  fileError: (message: string) => void,
): Pick<RowPatch, 'fill' | 'set'> {
  const patch: Pick<RowPatch, 'fill' | 'set'> = { fill: [], set: [] }
  for (const field of fields) {
    if (field.scope !== 'run') continue
    const columnValue = first.get(field.key)
    if (columnValue !== undefined) {
      patch.fill.push([field.key, columnValue])
      continue
    }
    const raw = runValues.get(field.key) ?? null
    const coerced = coerceCell(field, raw)
    if (!coerced.ok) {
      fileError(
        `${SHEETS.run}, ${field.label || field.key}: ${coerced.problem} (it applies to the whole run).`,
      )
      continue
    }
    if (coerced.value !== undefined) patch.set.push([field.key, coerced.value])
  }
  return patch
}
