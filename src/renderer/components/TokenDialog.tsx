import { useState, type FormEvent } from 'react'
import type { BridgeErrorInfo, EnvironmentView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { Dialog } from './Dialog'
import { TOKEN_BUTTON } from '../stores/plain-words'
import {
  DialogFormFoot,
  TokenField,
  TokenKeepingChoice,
  useTokenDescription,
  useTokenDraft,
  useTokenKeeping,
} from './TokenFormParts'

/** Replaces the token of an environment. The field is cleared as soon as it is sent. */
export function TokenDialog(props: { env: EnvironmentView; onClose: () => void }) {
  const { bridge, environments } = useStores()
  const { token, setToken, close } = useTokenDraft(props.onClose)
  const { keeping, setKeeping } = useTokenKeeping()
  const description = useTokenDescription(keeping)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    try {
      const list = await bridge.api.setToken({ name: props.env.name, token, keeping })
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
      title={`${TOKEN_BUTTON}: ${props.env.name}`}
      description={`Paste the API token from your provider. ${description}`}
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
        <p className="token-now">Now: {props.env.token.label}.</p>
        <TokenKeepingChoice keeping={keeping} onChange={setKeeping} />
        <DialogFormFoot
          error={error}
          busy={busy}
          submitLabel={keeping === 'session' ? 'Keep for this session' : 'Save token'}
          busyLabel="Saving…"
          onCancel={close}
        />
      </form>
    </Dialog>
  )
}
