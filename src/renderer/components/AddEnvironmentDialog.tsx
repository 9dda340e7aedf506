import { useState, type FormEvent } from 'react'
import type { BridgeErrorInfo } from '../../shared/bridge'
import { useEnvironments, useStores } from '../stores/context'
import { suggestedEnvironmentName } from '../stores/environments-selectors'
import { Dialog } from './Dialog'
import { Field } from './Field'
import {
  DialogFormFoot,
  TokenField,
  TokenKeepingChoice,
  useTokenDescription,
  useTokenDraft,
  useTokenKeeping,
} from './TokenFormParts'

/**
 * Name + service address + token. The token goes straight to the engine, which saves it or, when
 * the user chose so, holds it for this session only.
 */
export function AddEnvironmentDialog(props: { onClose: () => void }) {
  const { environments } = useStores()
  const items = useEnvironments((s) => s.items)
  const [name, setName] = useState(() => suggestedEnvironmentName({ items }))
  const [baseUrl, setBaseUrl] = useState('https://')
  const { token, setToken, close } = useTokenDraft(props.onClose)
  const { keeping, setKeeping } = useTokenKeeping()
  const description = useTokenDescription(keeping)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    const result = await environments.getState().add({ name, baseUrl, token, keeping })
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
      description={`An environment is a service that runs skills for you. ${description}`}
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
        <TokenField
          hint="Optional now; you can add it later."
          value={token}
          onChange={setToken}
          error={fields.token}
        />
        <TokenKeepingChoice keeping={keeping} onChange={setKeeping} />
        <DialogFormFoot
          error={error}
          busy={busy}
          submitLabel="Add environment"
          busyLabel="Adding…"
          onCancel={close}
        />
      </form>
    </Dialog>
  )
}
