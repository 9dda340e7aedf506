import { useCallback, useState, type ChangeEvent, type FormEvent } from 'react'
import type { BridgeErrorInfo, TokenKeeping, TokenStorageView } from '../../shared/bridge'
import { useApp } from '../stores/context'
import { KeychainCommand } from './CardParts'
import { Checkbox, Field } from './Field'

/** Where the engine saves tokens, and whether it can save them at all. */
function useTokenStore(): { store: TokenStorageView | null } {
  const info = useApp((s) => s.info)
  return { store: info?.secretStore ?? null }
}

/**
 * Where the token being typed will be kept. Without a secure place to save it, "this session
 * only" is chosen from the start, and the reason is said before anything is typed.
 */
function useTokenKeeping() {
  const { store } = useTokenStore()
  const [keeping, setKeeping] = useState<TokenKeeping>(() =>
    store && !store.canSaveTokens ? 'session' : 'saved',
  )
  return { keeping, setKeeping }
}

const SESSION_BOX = 'Keep the token for this session only'

/**
 * The dialog's one sentence on what will happen to the token, for the box as it is ticked now.
 * Without a secure place this sentence also says why, so nothing else in the dialog repeats it.
 */
function useTokenDescription(keeping: TokenKeeping): string {
  const { store } = useTokenStore()
  const noPlace = store !== null && !store.canSaveTokens
  const why = noPlace ? 'There is no secure place on this computer to save tokens, so ' : ''
  if (keeping === 'session') {
    return `${why}Skill Runner holds the token in its memory for this session only: it is gone when Skill Runner closes, and never shown again.`
  }
  if (noPlace)
    return `${why}this token cannot be saved. Tick "${SESSION_BOX}" to use it until Skill Runner closes.`
  if (store?.kind === 'keychain') {
    return `Your token is saved in ${store.description}, and never shown again.`
  }
  return 'Your token is saved encrypted on this computer, and never shown again.'
}

/**
 * The choice "Keep the token for this session only", with what to install to save tokens when
 * nothing can (the reason itself is in the dialog's sentence).
 */
function TokenKeepingChoice(props: {
  keeping: TokenKeeping
  onChange: (keeping: TokenKeeping) => void
}) {
  const { store } = useTokenStore()
  const advice = store !== null && !store.canSaveTokens ? store.advice : undefined
  return (
    <div className="token-keeping">
      {advice && (
        <p className="token-keeping-why" role="note">
          <span className="token-keeping-advice">{advice}</span>
        </p>
      )}
      {store !== null && !store.canSaveTokens && <KeychainCommand command={store.command} />}
      <Checkbox
        className="check-label"
        checked={props.keeping === 'session'}
        onChange={(checked) => props.onChange(checked ? 'session' : 'saved')}
      >
        {SESSION_BOX}
      </Checkbox>
    </div>
  )
}

/**
 * The token being typed in a dialog, and a close that forgets it: a token must not linger in
 * memory once its dialog is gone, whichever way the dialog was left.
 */
function useTokenDraft(onClose: () => void) {
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
 * A refusal in the foot's words. Refused for want of a secure place, the dialog's sentence has
 * already said why, so the foot says only what to do: tick the box.
 */
function refusalWords(error: BridgeErrorInfo): string {
  if (error.action === 'keep-token-for-session') {
    return `Nothing was saved. Tick "${SESSION_BOX}" to use the token until Skill Runner closes.`
  }
  return `${error.message} ${error.nextStep}`
}

/**
 * The foot of a dialog's form: the problem that belongs to no single field (a field's own
 * problem shows under it), then Cancel and the submit button, which says what it is doing.
 */
function DialogFormFoot(props: {
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
          {refusalWords(error)}
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

/**
 * A dialog's form that takes a token: the token being typed, where it will be kept and the
 * dialog's sentence on that, and a submit that hands both to `send` (which answers the problem,
 * or null once done) and closes the dialog once they went through.
 */
export function useTokenForm(
  onClose: () => void,
  send: (token: string, keeping: TokenKeeping) => Promise<BridgeErrorInfo | null>,
) {
  const { token, setToken, close } = useTokenDraft(onClose)
  const { keeping, setKeeping } = useTokenKeeping()
  const description = useTokenDescription(keeping)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)
  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    const problem = await send(token, keeping)
    setBusy(false)
    if (problem) setError(problem)
    else close()
  }
  return { token, setToken, keeping, setKeeping, description, busy, error, submit, close }
}

/** The end of a token form: where to keep the token, then the form's foot. */
export function TokenFormEnd(props: {
  form: ReturnType<typeof useTokenForm>
  submitLabel: string
  busyLabel: string
}) {
  const { form } = props
  return (
    <>
      <TokenKeepingChoice keeping={form.keeping} onChange={form.setKeeping} />
      <DialogFormFoot
        error={form.error}
        busy={form.busy}
        submitLabel={props.submitLabel}
        busyLabel={props.busyLabel}
        onCancel={form.close}
      />
    </>
  )
}
