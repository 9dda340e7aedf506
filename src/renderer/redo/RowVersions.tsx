import { useState } from 'react'
import type { BridgeErrorInfo, RowVersionsView, RunOverview } from '../../shared/bridge'
import { statusLabel } from '../../shared/format'
import { ErrorNotice } from '../components/ErrorNotice'
import { useRunSummaries, useStores } from '../stores/context'
import { summaryOf } from '../stores/run-summaries-store'
import { useLatestAnswer } from '../components/use-latest-answer'
import { errorInfo } from '../stores/errors'

type RowItem = RowVersionsView['items'][number]

/**
 * The rows of this run that were sent again (redone or retried): each one's versions, and which
 * one is kept: the one the user chose with "Keep this one", else the newest that succeeded. The
 * results workbook shows the kept one.
 */
export function RowVersions(props: { overview: RunOverview }) {
  const { bridge } = useStores()
  const { environment, retriedBy } = props.overview
  const { runId } = props.overview.detail.run
  const [view, setView] = useState<RowVersionsView | null>(null)
  const [keeping, setKeeping] = useState<string | null>(null)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)
  const later = retriedBy.join(' ')
  // Read again as the later runs move (each summary the window receives), so a row sent again
  // shows its run running, then its outcome, without the page being opened again.
  const laterNews = useRunSummaries((s) =>
    retriedBy.map((id) => summaryOf(s, environment, id)?.updatedAtUnix ?? 0).join(' '),
  )
  useLatestAnswer(
    () => (later ? bridge.api.rowVersions({ environment, runId }).catch(() => null) : null),
    setView,
    [bridge, environment, runId, later, laterNews],
  )
  if (!later || !view || view.items.length === 0) return null

  const keep = async (row: RowItem, version: number) => {
    setKeeping(`${row.index}:${version}`)
    setError(null)
    try {
      setView(await bridge.api.keepRowVersion({ environment, runId, index: row.index, version }))
    } catch (failure) {
      setError(errorInfo(failure))
    } finally {
      setKeeping(null)
    }
  }
  return (
    <div className="row-versions">
      <h4>Rows sent again</h4>
      <p className="card-sub">
        The kept version of each row is the one the results workbook shows: the newest that
        succeeded, unless you keep another.
      </p>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
      <ul>
        {view.items.map((row) => (
          <li key={row.index} data-row-index={row.index}>
            <strong>{row.label}</strong>:{' '}
            {row.versions.map((v, i) => (
              <Version
                key={v.runId}
                row={row}
                version={i}
                keeping={keeping === `${row.index}:${i}`}
                onKeep={() => void keep(row, i)}
              />
            ))}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** One version of a row: which run made it, how it went, kept or "Keep this one". */
function Version(props: { row: RowItem; version: number; keeping: boolean; onKeep: () => void }) {
  const { nav } = useStores()
  const { row, version: i } = props
  const v = row.versions[i]!
  const kept = i === row.kept
  const name = i === 0 ? 'this run' : i === 1 ? 'sent again' : `sent again (${i} times)`
  return (
    <span className={kept ? 'version-kept' : undefined}>
      {i > 0 && ' → '}
      {i === 0 ? (
        name
      ) : (
        <button
          type="button"
          className="link-button"
          data-run-id={v.runId}
          onClick={() => nav.getState().openRun(v.runId)}
        >
          {name}
        </button>
      )}{' '}
      ({statusLabel(v.status).toLowerCase()}
      {kept ? (row.keptBy === 'choice' ? ', kept as you chose' : ', kept') : ''}){!kept && ' '}
      {!kept && (
        <button
          type="button"
          className="btn btn-quiet btn-small keep-version"
          aria-label={`Keep this one: ${name}, ${row.label.toLowerCase()}`}
          disabled={props.keeping}
          onClick={props.onKeep}
        >
          {props.keeping ? 'Keeping…' : 'Keep this one'}
        </button>
      )}
    </span>
  )
}
