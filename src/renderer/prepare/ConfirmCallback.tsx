import { useState, type ReactNode } from 'react'
import type { ConfirmChoice, SubmissionPlanView } from '../../shared/bridge'
import { Checkbox } from '../components/Field'

/**
 * The confirmation's part about the address to call when the run ends: what it shows (nothing
 * when the plan asks for no call) and what it adds to the buyer's choice.
 */
export function useCallbackChoice(
  plan: SubmissionPlanView,
  sending: boolean,
): { fact: ReactNode; choice: ConfirmChoice } {
  const [cleared, setCleared] = useState(false)
  if (!plan.callbackUrl) return { fact: null, choice: {} }
  return {
    fact: (
      <ConfirmCallback
        address={plan.callbackUrl}
        cleared={cleared}
        setCleared={setCleared}
        sending={sending}
      />
    ),
    choice: cleared ? { withoutCallback: true } : {},
  }
}

/**
 * In the confirmation of a template run that asks the service to call an address when it ends
 * (typed on New run, or carried from the first run of a rest, retry or redo): the address, and
 * a box that sends this run without it.
 */
function ConfirmCallback(props: {
  address: string
  cleared: boolean
  setCleared: (cleared: boolean) => void
  sending: boolean
}) {
  return (
    <dl className="confirm-facts" data-testid="confirm-callback">
      <div>
        <dt>When it ends</dt>
        <dd>
          {props.cleared ? (
            'The service will not call any address.'
          ) : (
            <span>
              The service will call <span className="confirm-address">{props.address}</span>.
            </span>
          )}
          <Checkbox
            className="check-label confirm-small"
            checked={props.cleared}
            onChange={props.setCleared}
            disabled={props.sending}
          >
            Don’t call it for this run
          </Checkbox>
        </dd>
      </div>
    </dl>
  )
}
