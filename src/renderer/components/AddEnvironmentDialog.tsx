import { useCallback, useState, type FormEvent } from 'react'
import type { BridgeErrorInfo } from '../../shared/bridge'
import { useEnvironments, useStores } from '../stores/context'
import { suggestedEnvironmentName } from '../stores/environments-selectors'
import { Dialog } from './Dialog'
import { Field } from './Field'

/** Name + service address + token. The token goes straight to the engine's secret store. */
export function AddEnvironmentDialog(props: { onClose: () => void }) {
  const { environments } = useStores()
  const items = useEnvironments((s) => s.items)
  const [name, setName] = useState(() => suggestedEnvironmentName({ items }))
  const [baseUrl, setBaseUrl] = useState('https://')
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
    const result = await environments.getState().add({ name, baseUrl, token })
    setBusy(false)
    if (result === null) {
      close()
      return
    }
    setError(result)
  }

  const fields = error?.fields ?? {}
  return (
    <Dialog
      title="Add an environment"
      description="An environment is a Skill Execution Service you use. Your token is kept in your system’s keychain, never shown again."
      onClose={close}
    >
      <form onSubmit={submit} noValidate>
        <Field
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fields.name}
          required
          autoFocus
        />
        <Field
          label="Service address"
          hint="The address your provider gave you, e.g. https://skills.example.com"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          error={fields.baseUrl}
          inputMode="url"
          required
        />
        <Field
          label="API token"
          hint="Optional now; you can add it later."
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={fields.token}
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
            {busy ? 'Adding…' : 'Add environment'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
