import { useEffect, useState } from 'react'
import type { RowVersionsView, RunOverview } from '../../shared/bridge'
import { statusLabel } from '../../shared/format'
import { useStores } from '../stores/context'

/**
 * The rows of this run that were sent again (redone or retried): each one's versions, and which
 * one is kept (the newest that succeeded; the results workbook shows it).
 */
export function RowVersions(props: { overview: RunOverview }) {
  const { bridge, nav } = useStores()
  const { environment, retriedBy } = props.overview
  const { runId } = props.overview.detail.run
  const [view, setView] = useState<RowVersionsView | null>(null)
  const later = retriedBy.join(' ')
  useEffect(() => {
    if (!later) return
    let current = true
    bridge.api
      .rowVersions({ environment, runId })
      .then((v) => current && setView(v))
      .catch(() => current && setView(null))
    return () => {
      current = false
    }
  }, [bridge, environment, runId, later])
  if (!later || !view || view.items.length === 0) return null
  return (
    <div className="row-versions">
      <h4>Rows sent again</h4>
      <ul>
        {view.items.map((row) => (
          <li key={row.label}>
            <strong>{row.label}</strong>:{' '}
            {row.versions.map((v, i) => (
              <span key={v.runId} className={i === row.kept ? 'version-kept' : undefined}>
                {i > 0 && ' → '}
                {i === 0 ? (
                  'this run'
                ) : (
                  <button
                    type="button"
                    className="link-button"
                    data-run-id={v.runId}
                    onClick={() => nav.getState().openRun(v.runId)}
                  >
                    {i === 1 ? 'sent again' : `sent again (${i} times)`}
                  </button>
                )}{' '}
                ({statusLabel(v.status).toLowerCase()}
                {i === row.kept ? ', kept' : ''})
              </span>
            ))}
          </li>
        ))}
      </ul>
    </div>
  )
}
