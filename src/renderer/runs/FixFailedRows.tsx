import type { FixableRowView } from '../../shared/bridge'
import type { RowError } from '../../shared/contract'
import { Dialog } from '../components/Dialog'
import { ErrorNotice } from '../components/ErrorNotice'
import { FileDrop } from '../components/FileDrop'
import { toFileRef } from '../bridge/files'
import { useRunDetail, useStores } from '../stores/context'
import type { RetryEdits } from '../stores/run-detail/retry-types'
import { changedRows } from '../stores/run-detail/retry-slice'
import { plural } from '../../shared/format/amounts'

/**
 * The failed rows of a retry, to fix before they are sent again: each row's cells as sent, the
 * reason it failed, and the user's changes checked by the engine like a workbook's cells (when a
 * cell is left, or on "Check"). Going on to the confirmation waits for a checked, valid plan.
 */
export function FixFailedRows() {
  const { runDetail } = useStores()
  const retry = useRunDetail((s) => s.retry)
  if (retry.state !== 'fixing') return null
  const store = runDetail.getState()
  const rows = retry.plan.fixableRows ?? []
  const fields = rows[0]?.cells ?? []
  const problems = retry.checked ? retry.plan.validation.rowErrors : []
  const edited = Object.keys(retry.edits).length > 0
  const blocked = retry.checking
    ? 'Checking your changes…'
    : !retry.checked
      ? 'Check your changes before going on.'
      : problems.length > 0 || !retry.plan.validation.valid
        ? 'Fix the cells marked above before going on.'
        : ''
  const passed = blocked || retry.fromWorkbook ? '' : checkedWords(changedRows(rows, retry.edits))
  return (
    <Dialog
      title={`Fix ${plural(rows.length, 'failed row')}`}
      description="Change what made a row fail, then send only these rows again. Nothing is sent until you confirm."
      onClose={() => store.cancelRetry()}
    >
      <div className="fix-rows" data-testid="fix-failed-rows">
        <div className="fix-rows-scroll">
          <table className="plain-table fix-rows-table">
            <thead>
              <tr>
                <th scope="col">Row</th>
                {fields.map((f) => (
                  <th key={f.key} scope="col">
                    {f.label}
                  </th>
                ))}
                <th scope="col">Why it failed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, at) => (
                <FixRow
                  key={row.row}
                  row={row}
                  edits={retry.edits}
                  problems={problems.filter((p) => p.rowIndex === at)}
                  onEdit={(key, text) => store.editCell(row.row, key, text)}
                  onLeave={() => void store.checkFixes()}
                />
              ))}
            </tbody>
          </table>
        </div>
        <CorrectedWorkbook busy={retry.checking} />
        {retry.fromWorkbook && !retry.checking && (
          <p className="prep-note" role="status">
            Taken from “{retry.fromWorkbook}”:{' '}
            {plural(retry.plan.fixesFromWorkbook?.length ?? 0, 'row')} changed, shown above. Check
            them, then send.
          </p>
        )}
        {retry.error && <ErrorNotice error={retry.error} />}
        {(blocked || passed) && (
          <p className="card-sub" role="status">
            {blocked || passed}
          </p>
        )}
        <FixActions
          edited={edited}
          checking={retry.checking}
          checked={retry.checked}
          blocked={blocked !== ''}
        />
      </div>
    </Dialog>
  )
}

/** What a check that found nothing to fix says: what will be sent. */
function checkedWords(changed: number): string {
  return changed > 0
    ? `Checked: ${plural(changed, 'row')} changed, no problems found.`
    : 'Checked: nothing changed, so the rows go again as they were sent.'
}

/**
 * "Use a corrected workbook…": the workbook the run was sent from, fixed in a spreadsheet program.
 * The engine finds the failed rows by their row numbers and takes their changed cells.
 */
function CorrectedWorkbook(props: { busy: boolean }) {
  const { runDetail, bridge } = useStores()
  return (
    <FileDrop
      prompt="Or fix the failed rows in the workbook you sent, save it, and drop it here: they are found by their row numbers, and only they are sent."
      chooseLabel="Use a corrected workbook…"
      inputLabel="Choose the corrected workbook"
      accept=".xlsx,.csv"
      busy={props.busy}
      onFiles={(files) =>
        void toFileRef(bridge, files[0]!).then((file) => runDetail.getState().fixFromWorkbook(file))
      }
    />
  )
}

function FixActions(props: {
  edited: boolean
  checking: boolean
  checked: boolean
  blocked: boolean
}) {
  const store = useStores().runDetail.getState()
  return (
    <div className="dialog-actions">
      <button type="button" className="btn btn-quiet" onClick={() => store.cancelRetry()}>
        Cancel
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={props.checking || props.checked}
        onClick={() => void store.checkFixes()}
      >
        Check
      </button>
      <button
        type="button"
        className="btn btn-primary"
        disabled={props.blocked}
        onClick={() => store.reviewRetry()}
      >
        {props.edited ? 'Review and send fixed rows' : 'Send them unchanged'}
      </button>
    </div>
  )
}

function FixRow(props: {
  row: FixableRowView
  edits: RetryEdits
  problems: RowError[]
  onEdit: (key: string, text: string) => void
  onLeave: () => void
}) {
  const { row } = props
  return (
    <tr>
      <th scope="row">{row.row}</th>
      {row.cells.map((cell) => {
        const problem = props.problems.find((p) => p.fieldKey === cell.key)
        const value = props.edits[row.row]?.[cell.key] ?? cell.text
        const id = `fix-${row.row}-${cell.key}`
        return (
          <td key={cell.key}>
            {cell.editable ? (
              <input
                id={id}
                type="text"
                aria-label={`Row ${row.row}, ${cell.label}`}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
                value={value}
                onChange={(e) => props.onEdit(cell.key, e.target.value)}
                onBlur={props.onLeave}
              />
            ) : (
              <span className="card-sub" title="Change files in the workbook">
                {cell.text || 'a file'}
              </span>
            )}
            {problem && (
              <p id={`${id}-problem`} className="field-error">
                {problem.error}
              </p>
            )}
          </td>
        )
      })}
      <td className="fix-rows-error">{row.error}</td>
    </tr>
  )
}
