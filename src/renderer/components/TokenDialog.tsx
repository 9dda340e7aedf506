import type { EnvironmentView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { Dialog } from './Dialog'
import { TOKEN_BUTTON } from '../stores/plain-words'
import { TokenField, TokenFormEnd, useTokenForm } from './TokenFormParts'

/** Replaces the token of an environment. The field is cleared as soon as it went through. */
export function TokenDialog(props: { env: EnvironmentView; onClose: () => void }) {
  const { environments } = useStores()
  const form = useTokenForm(props.onClose, (token, keeping) =>
    environments.getState().setToken(props.env.name, token, keeping),
  )

  return (
    <Dialog
      title={`${TOKEN_BUTTON}: ${props.env.name}`}
      description={`Paste the API token from your provider. ${form.description}`}
      onClose={form.close}
    >
      <form onSubmit={form.submit} noValidate>
        <TokenField
          value={form.token}
          onChange={form.setToken}
          error={form.error?.fields?.token}
          autoFocus
          required
        />
        <p className="token-now">Now: {props.env.token.label}.</p>
        <TokenFormEnd
          form={form}
          submitLabel={form.keeping === 'session' ? 'Keep for this session' : 'Save token'}
          busyLabel="Saving…"
        />
      </form>
    </Dialog>
  )
}
