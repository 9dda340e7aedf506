/**
 * Run-scoped fields (one value for the whole run): taken from the sheet's column when it has
 * one, else from the Run settings sheet or the app's form, checked once and repeated in every
 * row.
 */
import type { InputRow, SchemaField } from '../../../shared/contract'
import { coerceCell, type CellValue } from '../../../shared/input-schema'
import { SHEETS } from '../sheets'

export function applyRunValues(
  fields: Iterable<SchemaField>,
  rows: InputRow[],
  runValues: Map<string, CellValue>,
  fileError: (message: string) => void,
): void {
  for (const field of fields) {
    if (field.scope !== 'run') continue
    const columnValue = rows.find((r) => r[field.key] !== undefined)?.[field.key]
    if (columnValue !== undefined) {
      for (const row of rows) row[field.key] ??= columnValue
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
    if (coerced.value !== undefined) for (const row of rows) row[field.key] = coerced.value
  }
}
