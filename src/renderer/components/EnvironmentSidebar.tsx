import { useMemo, useState } from 'react'
import { useApp, useStores, useFields } from '../stores/context'
import { selectedEnvironment, sortedEnvironments } from '../stores/environments-selectors'
import { AddEnvironmentDialog } from './AddEnvironmentDialog'

export function EnvironmentSidebar() {
  const { environments } = useStores()
  const { items, selected: selectedName } = useFields('environments', 'items', 'selected')
  const info = useApp((s) => s.info)
  const [adding, setAdding] = useState(false)
  const sorted = useMemo(() => sortedEnvironments({ items }), [items])
  const current = selectedEnvironment({ items, selected: selectedName })

  return (
    <nav className="sidebar" aria-labelledby="environments-heading">
      <div className="brand">
        <Logo />
        <span className="brand-name sidebar-label">Skill Runner</span>
      </div>
      <h2 id="environments-heading" className="sidebar-heading">
        Environments
      </h2>
      <ul className="env-list">
        {sorted.map((env) => (
          <li key={env.name}>
            <button
              type="button"
              className="env-item"
              aria-current={env.name === current?.name ? 'true' : undefined}
              // The whole name and host on hover: cut with "…" when long, icons alone when narrow.
              title={`${env.name} · ${hostOf(env.baseUrl)}`}
              onClick={() => environments.getState().select(env.name)}
            >
              <span className="env-item-icon" aria-hidden="true">
                {env.name.slice(0, 1).toUpperCase()}
              </span>
              <span className="env-item-name">
                {env.name}
                {env.builtIn && <span className="tag">Built in</span>}
                {env.isDefault && <span className="tag tag-quiet">Default</span>}
              </span>
              <span className="env-item-host">{hostOf(env.baseUrl)}</span>
              {!env.builtIn && (
                <span className={`env-item-token token-place-${env.token.place}`}>
                  {env.token.label}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="btn btn-secondary add-env"
        title="Add environment"
        onClick={() => setAdding(true)}
      >
        <svg className="btn-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M8 3v10M3 8h10" />
        </svg>
        <span className="sidebar-label">Add environment</span>
      </button>
      {info && (
        <p
          className={`store-note ${info.secretStore.canSaveTokens ? '' : 'store-note-warn'}`}
          title={[info.tokenNote, info.secretStore.advice].filter(Boolean).join(' ')}
        >
          <svg className="store-note-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <circle cx="5.5" cy="8" r="3" />
            <path d="M8.5 8H14M12 8v2.5" />
          </svg>
          <span className="store-note-title">Tokens</span>
          <span className="store-note-text">{info.tokenNote}</span>
          {info.secretStore.advice && (
            <span className="store-note-advice">{info.secretStore.advice}</span>
          )}
        </p>
      )}
      {adding && <AddEnvironmentDialog onClose={() => setAdding(false)} />}
    </nav>
  )
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

function Logo() {
  return (
    <svg className="logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="30" height="30" rx="8" className="logo-bg" />
      <path d="M9 21.5 15 16l-6-5.5" className="logo-mark" />
      <path d="M17 22h7" className="logo-mark" />
    </svg>
  )
}
