/**
 * Failed rows fixed before they are sent again: the user's new text for some cells, checked the
 * same way a workbook's cells are checked before sending (the target's schema, checkCell), so a
 * fixed row that still does not fit gives a plan that cannot be confirmed instead of a paid
 * failure.
 */
import type { FixableRowView } from '../../../shared/bridge'
import type { InputRow, ListingInputSchema, RowError } from '../../../shared/contract'
import { CellProblem, cellMessage, checkCell, plainField } from '../../../shared/input-schema'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { buyerListing } from '../listings/buyer-listing'
import type { SpendServices } from './plan'
import type { Submission } from './submissions'

/** New text for some cells of one row, named as the user sees it (sheet or submitted row). */
export interface RowEdit {
  row: number
  cells: Record<string, string>
}

/** The schema the rows were checked against when first sent (null: a listing that has none). */
export async function schemaOf(
  services: Pick<SpendServices, 'schemas'>,
  connection: Connection,
  original: Submission,
  signal?: AbortSignal,
): Promise<ListingInputSchema | null> {
  if (original.targetKind !== 'listing') {
    return (await services.schemas.template(connection, original.targetId, { signal })).schema
  }
  return (await buyerListing(connection.client, original.targetId, signal)).schema
}

function refuse(message: string, nextStep: string): never {
  throw new EngineError('bad-input', message, nextStep)
}

/** The row's fields by key: the schema's row fields, or plain text fields of the row's keys. */
function rowFields(schema: ListingInputSchema | null, row: InputRow) {
  if (schema) return new Map(schema.fields.filter((f) => f.scope !== 'run').map((f) => [f.key, f]))
  return new Map(Object.keys(row).map((key) => [key, plainField(key, key, 'text')]))
}

/**
 * The rows to send with the edits applied, and the problems of the edited cells (rowIndex: the
 * row's place among those sent). Only failed rows can be edited, and not file cells (a file is
 * changed in the workbook, where it is uploaded again).
 */
export function editedRows(
  schema: ListingInputSchema | null,
  run: { runId: string; original: Submission; indexes: number[]; rowNumbers: number[] },
  edits: RowEdit[],
): { rows: InputRow[]; problems: RowError[] } {
  const { runId, original, indexes, rowNumbers } = run
  const rows = indexes.map((i) => ({ ...original.rows[i]! }))
  if (edits.length === 0) return { rows, problems: [] }
  // A fixed row is found again in its run by its sheet row (row-versions.ts); rows not sent from
  // a workbook are found by their cells, which the fix changed.
  if (original.rowNumbers.length === 0)
    refuse(
      `The rows of run ${runId} did not come from a workbook, so they cannot be fixed here.`,
      'Fix the rows in a workbook and send it again.',
    )
  const problems: RowError[] = []
  for (const edit of edits) {
    const at = rowNumbers.indexOf(edit.row)
    if (at < 0)
      refuse(
        `Row ${edit.row} did not fail in run ${runId}, so it is not part of this retry.`,
        `Change only the failed rows (${rowNumbers.join(', ')}).`,
      )
    const fields = rowFields(schema, rows[at]!)
    for (const [key, text] of Object.entries(edit.cells)) {
      const field = fields.get(key)
      if (!field)
        refuse(
          `The rows of run ${runId} have no field "${key}".`,
          'Change only the row’s own cells.',
        )
      if (field.type === 'file')
        refuse(
          `Row ${edit.row}, ${field.label || key}: a file cannot be changed here.`,
          'Fix the file in the workbook and send it again.',
        )
      const checked = checkCell(field, text)
      if (checked instanceof CellProblem) {
        problems.push({
          error: cellMessage(edit.row, field, checked.problem),
          fieldKey: key,
          rowIndex: at,
        })
      } else if (checked === undefined) delete rows[at]![key]
      else rows[at]![key] = checked
    }
  }
  return { rows, problems }
}

/** A cell as the user sees it to fix: text as typed in a workbook (lists joined by ';'). */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value)) return value.map(cellText).join('; ')
  if (typeof value === 'object') return ''
  return String(value)
}

/** The failed rows with their cells as sent and the reason each failed, to fix in the app. */
export function fixableRows(
  schema: ListingInputSchema | null,
  original: Submission,
  failed: { index: number; row: number; error: string }[],
): FixableRowView[] {
  if (original.rowNumbers.length === 0) return []
  return failed.map(({ index, row, error }) => {
    const values = original.rows[index]!
    const fields = [...rowFields(schema, values).values()]
    return {
      row,
      error,
      cells: fields.map((f) => ({
        key: f.key,
        label: f.label || f.key,
        text: cellText(values[f.key]),
        editable: f.type !== 'file',
      })),
    }
  })
}
