import { useCallback, useState, type ChangeEvent } from 'react'
import type { BridgeErrorInfo } from '../../shared/bridge'
import { Field } from './Field'

/**
 * The token being typed in a dialog, and a close that forgets it: a token must not linger in
 * memory once its dialog is gone, whichever way the dialog was left.
 */
export function useTokenDraft(onClose: () => void) {
  const [token, setToken] = useState('')
  const close = useCallback(() => {
    setToken('')
    onClose()
  }, [onClose])
  return { token, setToken, close }
}

/** The API token field: masked, never autocompleted or spell-checked. */
export function TokenField(props: {
  value: string
  onChange: (token: string) => void
  error: string | undefined
  hint?: string
  autoFocus?: boolean
  required?: boolean
}) {
  const { value, onChange, ...rest } = props
  return (
    <Field
      label="API token"
      type="password"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      {...rest}
    />
  )
}

/**
 * The foot of a dialog's form: the problem that belongs to no single field (a field's own
 * problem shows under it), then Cancel and the submit button, which says what it is doing.
 */
export function DialogFormFoot(props: {
  error: BridgeErrorInfo | null
  busy: boolean
  submitLabel: string
  busyLabel: string
  onCancel: () => void
}) {
  const { error } = props
  return (
    <>
      {error && !error.fields && (
        <p className="form-error" role="alert">
          {error.message} {error.nextStep}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-quiet" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={props.busy}>
          {props.busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </>
  )
}
