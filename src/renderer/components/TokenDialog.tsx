import { useCallback, useState, type FormEvent } from 'react'
import type { BridgeErrorInfo, EnvironmentView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { Dialog } from './Dialog'
import { Field } from './Field'

/** Replaces the token of an environment. The field is cleared as soon as it is sent. */
export function TokenDialog(props: { env: EnvironmentView; onClose: () => void }) {
  const { bridge, environments } = useStores()
  const [token, setToken] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)
  const { onClose } = props
  const close = useCallback(() => {
    setToken('')
    onClose()
  }, [onClose])

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    try {
      const list = await bridge.api.setToken({ name: props.env.name, token })
      setToken('')
      environments.getState().apply(list)
      close()
    } catch (e) {
      setError(errorInfo(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      title={`Token for ${props.env.name}`}
      description="Paste the API token from your provider. It is saved in your system’s keychain and never shown again."
      onClose={close}
    >
      <form onSubmit={submit} noValidate>
        <Field
          label="API token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={error?.fields?.token}
          autoFocus
          required
        />
        {error && !error.fields && (
          <p className="form-error" role="alert">
            {error.message} {error.nextStep}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn btn-quiet" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save token'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
