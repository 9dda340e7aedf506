import { useState, type FormEvent } from 'react'
import type { BridgeErrorInfo, EnvironmentView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { Dialog } from './Dialog'
import { DialogFormFoot, TokenField, useTokenDraft } from './TokenFormParts'

/** Replaces the token of an environment. The field is cleared as soon as it is sent. */
export function TokenDialog(props: { env: EnvironmentView; onClose: () => void }) {
  const { bridge, environments } = useStores()
  const { token, setToken, close } = useTokenDraft(props.onClose)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)

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
        <TokenField
          value={token}
          onChange={setToken}
          error={error?.fields?.token}
          autoFocus
          required
        />
        <DialogFormFoot
          error={error}
          busy={busy}
          submitLabel="Save token"
          busyLabel="Saving…"
          onCancel={close}
        />
      </form>
    </Dialog>
  )
}
