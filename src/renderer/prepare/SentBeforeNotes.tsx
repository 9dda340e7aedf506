import type { PaidBeforeView, SubmissionPlanView } from '../../shared/bridge'
import { plural } from '../../shared/amounts'
import { Checkbox } from '../components/Field'

/** Plan again with only the rows not paid for before: how many, and how. */
export interface SendOnlyNew {
  rows: number
  send: () => void
}

/**
 * Some rows of the plan were sent before and succeeded (or still run): the confirmation says
 * which, and sends them only once the user chooses to pay again, or, where it applies, plans
 * again with only the rows not sent yet.
 */
export function PaidBeforeNote(props: {
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
export function DuplicateNote(props: {
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
