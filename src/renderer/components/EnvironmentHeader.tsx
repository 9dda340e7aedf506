import { useRef, useState } from 'react'
import type { BridgeErrorInfo, EnvironmentView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { TOKEN_BUTTON } from '../stores/plain-words'
import { ErrorNotice } from './ErrorNotice'
import { TokenDialog } from './TokenDialog'

const BUILT_IN_NOTE =
  'A practice service that runs on this computer. Try every step here without an account; nothing is charged.'

export function EnvironmentHeader(props: { env: EnvironmentView }) {
  const { env } = props
  const { environments } = useStores()
  const [confirmRemove, setConfirmRemove] = useState(false)
  const [editingToken, setEditingToken] = useState(false)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)
  const removeButton = useRef<HTMLButtonElement>(null)
  // Keeping the environment (Keep or Escape) gives focus back to the button that asked.
  const keep = () => {
    setConfirmRemove(false)
    requestAnimationFrame(() => removeButton.current?.focus())
  }

  async function act(task: () => Promise<BridgeErrorInfo | null>) {
    setError(await task())
  }

  return (
    <header className="env-header">
      <EnvironmentTitle env={env} />
      <div className="env-header-actions">
        {!env.isDefault && (
          <button
            type="button"
            className="btn btn-quiet btn-small"
            onClick={() => act(() => environments.getState().makeDefault(env.name))}
          >
            Make default
          </button>
        )}
        {!env.builtIn && (
          <button
            type="button"
            className="btn btn-quiet btn-small"
            onClick={() => setEditingToken(true)}
          >
            {TOKEN_BUTTON}
          </button>
        )}
        {!env.builtIn &&
          (confirmRemove ? (
            <span
              className="confirm"
              role="group"
              aria-label={`Remove ${env.name}?`}
              onKeyDown={(e) => {
                if (e.key !== 'Escape') return
                e.stopPropagation()
                keep()
              }}
            >
              <span>Remove {env.name} and its token?</span>
              <button
                type="button"
                className="btn btn-danger btn-small"
                onClick={() => act(() => environments.getState().remove(env.name))}
              >
                Remove
              </button>
              <button type="button" className="btn btn-quiet btn-small" onClick={keep} autoFocus>
                Keep
              </button>
            </span>
          ) : (
            <button
              ref={removeButton}
              type="button"
              className="btn btn-quiet btn-small"
              onClick={() => setConfirmRemove(true)}
            >
              Remove…
            </button>
          ))}
      </div>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
      {editingToken && <TokenDialog env={env} onClose={() => setEditingToken(false)} />}
    </header>
  )
}

/** The environment on one line: its name, then where it is and its token, cut with "…" when
 * the window is narrow and whole in the tooltip. */
function EnvironmentTitle(props: { env: EnvironmentView }) {
  const { env } = props
  const subtitle = [env.baseUrl, env.token.label, ...(env.builtIn ? [BUILT_IN_NOTE] : [])].join(
    ' · ',
  )
  return (
    <div className="env-header-text">
      <h1 id="env-title">
        {env.name}
        {env.builtIn && <span className="tag">Built in</span>}
        {env.isDefault && <span className="tag tag-quiet">Default</span>}
      </h1>
      <p className="env-header-sub" title={subtitle}>
        <span className="mono">{env.baseUrl}</span>
        <span aria-hidden="true"> · </span>
        <span className={`token-place token-place-${env.token.place}`}>{env.token.label}</span>
        {env.builtIn && (
          <>
            <span aria-hidden="true"> · </span>
            <span className="env-header-note">{BUILT_IN_NOTE}</span>
          </>
        )}
      </p>
    </div>
  )
}
