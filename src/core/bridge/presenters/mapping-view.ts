/** The column mapping of a checked sheet, as the New run screen shows it (absent when exact). */
import type { ListingInputSchema } from '../../../shared/contract'
import type { ColumnMappingView, MappedColumnView } from '../../../shared/bridge'
import { columnLetter, type MappingOutcome } from '../../workbooks'

/**
 * The mapping in force (given or remembered) or proposed, with each column's first values and
 * the proposal's confidence. A column the user placed where the proposal did not is sure (1).
 */
export function mappingView(
  outcome: MappingOutcome | undefined,
  schema: ListingInputSchema | null | undefined,
  fileErrors: string[],
): { mapping?: ColumnMappingView; fileErrors?: string[] } {
  if (!outcome || outcome.source === 'exact' || !schema || !outcome.proposal) return {}
  const proposed = new Map(outcome.proposal.columns.map((c) => [c.index, c]))
  const columns: MappedColumnView[] = []
  outcome.headers.forEach((header, index) => {
    if (header === null) return
    const guess = proposed.get(index)
    const fieldKey =
      outcome.source === 'proposed' ? (guess?.fieldKey ?? null) : (outcome.applied[header] ?? null)
    columns.push({
      header,
      letter: columnLetter(index),
      fieldKey,
      confidence: guess && guess.fieldKey === fieldKey ? guess.confidence : 1,
      samples: guess?.samples ?? [],
    })
  })
  const byOrder = new Map(schema.columns.map((c) => [c.fieldKey, c.order]))
  const fields = schema.fields
    .filter((f) => f.scope !== 'run')
    .sort((a, b) => (byOrder.get(a.key) ?? 1e9) - (byOrder.get(b.key) ?? 1e9))
    .map((f) => ({ key: f.key, label: f.label || f.key, required: f.required }))
  // While the mapping waits for the user, the panel says what the header's problems said.
  const waiting = outcome.source === 'proposed'
  const header = new Set(outcome.problems)
  return {
    ...(waiting
      ? {
          fileErrors: [
            'Your columns are not matched to the template’s fields yet: check the mapping and use it, then the rows are checked.',
            ...fileErrors.filter((e) => !header.has(e)),
          ],
        }
      : {}),
    mapping: {
      source: outcome.source,
      headerRow: outcome.headerRow,
      columns,
      fields,
      ambiguous: outcome.source === 'proposed' && outcome.proposal.ambiguous,
    },
  }
}
