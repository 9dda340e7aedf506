import { useId, useMemo } from 'react'
import { RUN_FILTER_STATUSES, type EnvironmentView } from '../../shared/bridge'
import { statusLabel } from '../../shared/format'
import { useRuns, useStores } from '../stores/context'
import { canLoadMore, runsCaption, visibleRuns } from '../stores/runs-selectors'
import { ErrorNotice } from './ErrorNotice'
import { RunsTable } from './RunsTable'

export function RunsPanel(props: { env: EnvironmentView }) {
  const { runs } = useStores()
  const items = useRuns((s) => s.items)
  const status = useRuns((s) => s.status)
  const totalCount = useRuns((s) => s.totalCount)
  const loading = useRuns((s) => s.loading)
  const loadingMore = useRuns((s) => s.loadingMore)
  const nextPageToken = useRuns((s) => s.nextPageToken)
  const error = useRuns((s) => s.error)
  const filterId = useId()
  const shown = useMemo(() => visibleRuns({ items, status }), [items, status])

  return (
    <section className="card runs" aria-labelledby="runs-title">
      <div className="card-head">
        <div>
          <h2 id="runs-title">Runs</h2>
          <p className="card-sub" aria-live="polite">
            {loading ? 'Loading runs…' : runsCaption({ items, status, totalCount })}
          </p>
        </div>
        <div className="toolbar">
          <label htmlFor={filterId} className="toolbar-label">
            Show
          </label>
          <select
            id={filterId}
            value={status}
            onChange={(e) => void runs.getState().setStatus(e.target.value)}
          >
            <option value="">All runs</option>
            {RUN_FILTER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void runs.getState().refresh()}
          >
            Refresh
          </button>
        </div>
      </div>
      {error && <ErrorNotice error={error} onRetry={() => void runs.getState().refresh()} />}
      {!loading && shown.length === 0 && !error ? (
        <div className="empty-runs">
          <p className="empty-title">
            {status ? `No ${statusLabel(status).toLowerCase()} runs.` : 'No runs yet.'}
          </p>
          <p>Runs started in this environment appear here and update on their own.</p>
        </div>
      ) : (
        <RunsTable runs={shown} unitLabel={props.env.unitLabel} environment={props.env.name} />
      )}
      {canLoadMore({ nextPageToken, loadingMore }) && (
        <div className="load-more">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void runs.getState().loadMore()}
          >
            Show older runs
          </button>
        </div>
      )}
      {loadingMore && <p className="card-sub">Loading older runs…</p>}
    </section>
  )
}
