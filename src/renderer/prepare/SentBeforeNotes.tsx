import type { PaidBeforeView, SubmissionPlanView } from '../../shared/bridge'
import { plural } from '../../shared/format/amounts'
import { sheetRowsText } from '../../shared/format/rows'
import { Checkbox } from '../components/Field'

/**
 * The chosen rows of a plan that were not paid for before, when the plan names them all (it
 * names at most 50); null when there are none or they cannot all be told. `chosen`: the rows
 * asked for, else the plan's own sheet rows.
 */
export function rowsNotPaidBefore(
  plan: SubmissionPlanView,
  chosen: readonly number[] = planRows(plan),
) {
  const paid = plan.paidBefore
  if (!paid || paid.sheetRows.length < paid.rows) return null
  const paidRows = new Set(paid.sheetRows)
  const left = chosen.filter((row) => !paidRows.has(row))
  return left.length > 0 ? left : null
}

/** The sheet rows a plan sends, when it names them by sheet row. */
function planRows(plan: SubmissionPlanView): number[] {
  return plan.rowNumbering === 'spreadsheet' ? plan.rowNumbers : []
}

/** Plan again with only the rows not paid for before: how many, and how. */
export interface SendOnlyNew {
  rows: number
  send: () => void
}

/** Sorted sheet rows as runs of neighbours: "rows 4 to 7, 9 and 11 to 16". */
function rowRangesText(numbers: readonly number[]): string {
  const ranges: string[] = []
  for (let i = 0; i < numbers.length;) {
    let j = i
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++
    ranges.push(j === i ? `${numbers[i]}` : `${numbers[i]} to ${numbers[j]}`)
    i = j + 1
  }
  if (ranges.length <= 1) return sheetRowsText(numbers)
  return `rows ${ranges.slice(0, -1).join(', ')} and ${ranges.at(-1)}`
}

/** Which sheet rows were paid for before: "Paid before: rows 4 to 7 and 9 of the sheet." */
function paidRowsWords(paid: PaidBeforeView): string {
  const named = rowRangesText(paid.sheetRows)
  const more = paid.rows - paid.sheetRows.length
  return `Paid before: ${named} of the sheet${more > 0 ? `, and ${plural(more, 'row')} more` : ''}.`
}

/**
 * Some rows of the plan were sent before and succeeded (or still run): the confirmation says
 * which, and sends them only once the user chooses to pay again, or, where it applies, plans
 * again with only the rows not sent yet.
 */
function PaidBeforeNote(props: {
  paidBefore: PaidBeforeView
  again: boolean
  setAgain: (again: boolean) => void
  sending: boolean
  sendOnlyNew?: SendOnlyNew
}) {
  const { paidBefore, sendOnlyNew } = props
  return (
    <div className="prep-note confirm-duplicate" role="note" data-testid="paid-before">
      <p>{paidBefore.words}</p>
      <p className="confirm-small">{paidRowsWords(paidBefore)}</p>
      <div className="prep-actions">
        <Checkbox
          className="check-label"
          checked={props.again}
          onChange={props.setAgain}
          disabled={props.sending}
        >
          Send these rows again (pay again)
        </Checkbox>
        {sendOnlyNew && (
          <button
            type="button"
            className="btn btn-small btn-secondary"
            disabled={props.sending}
            onClick={sendOnlyNew.send}
          >
            Send only the {plural(sendOnlyNew.rows, 'row')} not sent yet
          </button>
        )}
      </div>
    </div>
  )
}

/** The same rows were already sent and accepted: a second yes to send them again. */
function DuplicateNote(props: {
  plan: SubmissionPlanView
  again: boolean
  setAgain: (again: boolean) => void
  sending: boolean
  onOpenRun?: (runId: string) => void
}) {
  const duplicate = props.plan.duplicateOf!
  return (
    <div className="prep-note confirm-duplicate" role="note">
      <p>
        You already sent these same rows here on {new Date(duplicate.acceptedAtMs).toLocaleString()}
        .
      </p>
      <div className="prep-actions">
        {props.onOpenRun && (
          <button
            type="button"
            className="btn btn-small btn-secondary"
            onClick={() => props.onOpenRun?.(duplicate.runId)}
          >
            Open that run
          </button>
        )}
        <Checkbox
          className="check-label"
          checked={props.again}
          onChange={props.setAgain}
          disabled={props.sending}
        >
          Send them again as a new paid run
        </Checkbox>
      </div>
    </div>
  )
}

/**
 * What the confirmation says when rows were sent before: the batch's rows paid for before, else
 * the same rows already sent and accepted; nothing when neither.
 */
export function SentBeforeNote(props: {
  plan: SubmissionPlanView
  again: boolean
  setAgain: (again: boolean) => void
  sending: boolean
  onOpenRun?: (runId: string) => void
  sendOnlyNew?: SendOnlyNew
}) {
  const { plan, onOpenRun, sendOnlyNew, ...choice } = props
  if (plan.paidBefore)
    return (
      <PaidBeforeNote
        paidBefore={plan.paidBefore}
        {...choice}
        {...(sendOnlyNew ? { sendOnlyNew } : {})}
      />
    )
  if (!plan.duplicateOf) return null
  return <DuplicateNote plan={plan} {...choice} {...(onOpenRun ? { onOpenRun } : {})} />
}
