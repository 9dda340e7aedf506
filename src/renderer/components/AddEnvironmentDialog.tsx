import { useState } from 'react'
import { useEnvironments, useStores } from '../stores/context'
import { suggestedEnvironmentName } from '../stores/environments-selectors'
import { Dialog } from './Dialog'
import { Field } from './Field'
import { TokenField, TokenFormEnd, useTokenForm } from './TokenFormParts'

/**
 * Name + service address + token. The token goes straight to the engine, which saves it or, when
 * the user chose so, holds it for this session only.
 */
export function AddEnvironmentDialog(props: { onClose: () => void }) {
  const { environments } = useStores()
  const items = useEnvironments((s) => s.items)
  const [name, setName] = useState(() => suggestedEnvironmentName({ items }))
  const [baseUrl, setBaseUrl] = useState('https://')
  const form = useTokenForm(props.onClose, (token, keeping) =>
    environments.getState().add({ name, baseUrl, token, keeping }),
  )

  const fields = form.error?.fields ?? {}
  return (
    <Dialog
      title="Add an environment"
      description={`An environment is a service that runs skills for you. ${form.description}`}
      onClose={form.close}
    >
      <form onSubmit={form.submit} noValidate>
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
          value={form.token}
          onChange={form.setToken}
          error={fields.token}
        />
        <TokenFormEnd form={form} submitLabel="Add environment" busyLabel="Adding…" />
      </form>
    </Dialog>
  )
}
