import { useState } from 'react'
import { callbackAddressProblem } from '../../shared/callback-address'
import { Field } from '../components/Field'
import { useFields, useStores } from '../stores/context'

/**
 * The send step's advanced options, folded by default: for an official template, an address the
 * service calls when the run ends (a shop's import, a spreadsheet automation). Checked as typed by
 * the same rule as the engine's, so a bad one is said here and blocks the cost step. A listing has
 * no such address: nothing is shown for it.
 */
export function SendOptions(props: { disabled: boolean }) {
  const { prepare } = useStores()
  const { target, callbackUrl } = useFields('prepare', 'target', 'callbackUrl')
  const [left, setLeft] = useState(false)
  if (target?.kind !== 'template') return null
  const problem = callbackAddressProblem(callbackUrl)
  const set = callbackUrl.trim() !== ''
  return (
    <details className="send-options">
      <summary>
        Advanced options
        {set && !problem && (
          <span className="prep-muted"> · tells another service when it ends</span>
        )}
      </summary>
      <Field
        label="Tell another service when the run ends (optional)"
        hint="The service calls this address once the run ends, with how it went. Use an https:// address, or http:// to this computer."
        // Said once the field is left, not at every key while an address is typed.
        error={problem && left ? `${problem.message} ${problem.nextStep}` : undefined}
        type="url"
        inputMode="url"
        spellCheck={false}
        autoComplete="off"
        placeholder="https://"
        value={callbackUrl}
        disabled={props.disabled}
        onChange={(e) => prepare.getState().setCallbackUrl(e.target.value)}
        onBlur={() => setLeft(true)}
      />
    </details>
  )
}
