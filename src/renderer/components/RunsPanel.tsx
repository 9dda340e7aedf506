import { useCallback, useMemo } from 'react'
import type { EnvironmentView } from '../../shared/bridge'
import { RUN_FILTER_STATUSES } from '../../shared/bridge/names'
import { NO_ROW_MARKS, statusLabel, unreachableText } from '../../shared/format'
import { useRunSummaries, useRuns, useSaves, useStores, useFields } from '../stores/context'
import { canLoadMore, NEEDS_ATTENTION, runsCaption, visibleRuns } from '../stores/runs-selectors'
import { ErrorNotice } from './ErrorNotice'
import { RunsTable, useNow } from './RunsTable'
import { SearchToolbar } from './SearchField'
import { ShowChoice, type ShowOption } from './ShowChoice'
import { CopyablePath } from '../runs/CopyablePath'
import { savedFolderWords } from '../runs/run-view'
import { Card, Details, EmptyList } from './CardParts'
import { CompareChooser, useCompareChoice, type CompareChoice } from '../compare/CompareFromList'

export function RunsPanel(props: { env: EnvironmentView }) {
  const { runs, nav } = useStores()
  const items = useRuns((s) => s.items)
  const status = useRuns((s) => s.status)
  const search = useRuns((s) => s.search)
  const totalCount = useRuns((s) => s.totalCount)
  const loading = useRuns((s) => s.loading)
  const loadingMore = useRuns((s) => s.loadingMore)
  const nextPageToken = useRuns((s) => s.nextPageToken)
  const error = useRuns((s) => s.error)
  const unreachable = useRuns((s) => s.unreachable)
  const filterContext = useFilterContext(props.env.name, status)
  const shown = useMemo(
    () => visibleRuns({ items, status, search }, filterContext),
    [items, status, search, filterContext],
  )
  const loadMore = useCallback(() => void runs.getState().loadMore(), [runs])
  const openRun = useCallback((runId: string) => nav.getState().openRun(runId), [nav])
  const more = canLoadMore({ nextPageToken, loadingMore })
  const choice = useCompareChoice()

  return (
    <Card
      titleId="runs-title"
      title="Runs"
      sub={`What the service has for this environment, sent from any computer · ${
        loading
          ? 'Loading runs…'
          : runsCaption({ items, status, search, totalCount }, filterContext)
      }`}
      live
      className="runs"
      tools={<RunsToolbar choice={choice} />}
    >
      <UnreachableBanner />
      {error && <ErrorNotice error={error} onRetry={() => void runs.getState().refresh()} />}
      <LastSaved />
      <CompareChooser environment={props.env.name} choice={choice} />
      {!loading && shown.length === 0 && !error ? (
        <NoRunsShown />
      ) : (
        <RunsTable
          runs={shown}
          unitLabel={props.env.unitLabel}
          environment={props.env.name}
          onOpen={openRun}
          choice={choice}
          lastSeen={unreachable !== null}
          // While searching, older pages load only when asked (the button below): the search
          // looks at the runs loaded, and scrolling a few matches should not fetch them all.
          {...(more && !search.trim() ? { onEndReached: loadMore } : {})}
        />
      )}
      {(more || loadingMore) && (
        // One line of a fixed height for the button and "Loading…": a page asked for and come
        // changes its words only, and the table's frame keeps its size (each change of the
        // card's layout laid out the whole table again, once as a page was asked, once as it came).
        <div className="load-more">
          {loadingMore ? (
            <p className="card-sub" role="status">
              Loading older runs…
            </p>
          ) : (
            <button type="button" className="btn btn-secondary" onClick={loadMore}>
              {search.trim() ? 'Look in older runs too' : 'Show older runs'}
            </button>
          )}
        </div>
      )}
    </Card>
  )
}

/** Search, the status filter, "Compare runs" and "Refresh". */
function RunsToolbar(props: { choice: CompareChoice }) {
  const { runs } = useStores()
  const search = useRuns((s) => s.search)
  const setSearch = useCallback((text: string) => runs.getState().setSearch(text), [runs])
  const { choice } = props
  return (
    <SearchToolbar
      label="Search runs by name, template or input file"
      placeholder="Search name, template, file"
      value={search}
      onSearch={setSearch}
      delayMs={0}
    >
      <StatusFilter />
      <button
        type="button"
        className="btn btn-secondary"
        aria-pressed={choice.choosing}
        onClick={choice.choosing ? choice.stop : choice.start}
      >
        Compare runs
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => void runs.getState().refresh()}
      >
        Refresh
      </button>
    </SearchToolbar>
  )
}

/** Why the list is empty: no runs, none of this status, or none matching the search. */
function NoRunsShown() {
  const { runs, nav } = useStores()
  const { status, search, nextPageToken } = useFields('runs', 'status', 'search', 'nextPageToken')
  return (
    <EmptyList
      action={
        search.trim()
          ? { label: 'Clear the search', onClick: () => runs.getState().setSearch('') }
          : status
            ? { label: 'Show all runs', onClick: () => void runs.getState().setStatus('') }
            : { label: 'Start a new run', onClick: () => nav.getState().show('prepare') }
      }
      title={
        search.trim()
          ? `No loaded run matches “${search.trim()}”.`
          : status === NEEDS_ATTENTION
            ? 'No run needs attention.'
            : status
              ? `No ${statusLabel(status).toLowerCase()} runs.`
              : 'No runs yet.'
      }
    >
      {search.trim() && nextPageToken
        ? 'Older runs are not loaded yet: look in them too, or change the search.'
        : search.trim()
          ? 'Clear the search to see every run.'
          : status
            ? 'Show every run to see the others.'
            : 'Start a new run: it appears here and updates on its own.'}
    </EmptyList>
  )
}

const STATUS_OPTIONS: readonly ShowOption<string>[] = [
  { value: '', label: 'All runs' },
  { value: NEEDS_ATTENTION, label: 'Needs attention' },
  ...RUN_FILTER_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
]

/** Which runs to show, by status. */
function StatusFilter() {
  const { runs } = useStores()
  const status = useRuns((s) => s.status)
  return (
    <ShowChoice
      value={status}
      options={STATUS_OPTIONS}
      onChange={(value) => void runs.getState().setStatus(value)}
    />
  )
}

/** Where the last "Save outputs" of the list put the files: in words, the full path under Details. */
function LastSaved() {
  const { saves } = useStores()
  const last = useSaves((s) => s.lastSaved)
  if (!last) return null
  const saved = `Saved ${last.savedFiles} file${last.savedFiles === 1 ? '' : 's'} of the run${
    last.failedFiles ? ` (${last.failedFiles} failed: save again to retry)` : ''
  }`
  return (
    <div className="last-saved" role="status">
      <div className="last-saved-words">
        <span>{saved}</span>
        <span className="card-sub">{savedFolderWords(last.folder)}</span>
        <Details>
          <CopyablePath label={`${saved} in`} path={last.folder} />
        </Details>
      </div>
      <button
        type="button"
        className="btn btn-quiet btn-small"
        onClick={() => saves.getState().dismissLastSaved()}
      >
        Dismiss
      </button>
    </div>
  )
}

/** The service cannot be reached: since when, how often it is asked, and that the list is as last seen. */
function UnreachableBanner() {
  const { unreachable, error } = useFields('runs', 'unreachable', 'error')
  // With no runs to keep showing, the error notice says it (and offers to try again).
  if (!unreachable || error?.code === 'unreachable') return null
  return (
    <div className="offline-banner" role="status" data-testid="runs-unreachable">
      <strong>{unreachableText(unreachable)}.</strong> The runs below are as last seen; they update
      by themselves when the service answers again.
    </div>
  )
}

/**
 * What the "Needs attention" filter needs besides the runs: the time (a run stalls while nothing
 * changes, so it is looked at again every 30 s) and the runs whose outputs failed to save.
 */
function useFilterContext(environment: string, status: string) {
  const saves = useSaves((s) => s.byRun)
  // Only Needs attention judges stalls: other filters need not be worked out again at each row.
  const marks = useRunSummaries((s) =>
    status === NEEDS_ATTENTION ? s.rowMarks[environment] : undefined,
  )
  const nowMs = useNow(30_000)
  return useMemo(
    () => ({
      nowMs,
      saveFailed: (runId: string) => {
        const save = saves[runId]
        return save?.state === 'failed' || (save?.state === 'saved' && save.failedFiles > 0)
      },
      rowMarks: (runId: string) => marks?.[runId] ?? NO_ROW_MARKS,
    }),
    [nowMs, saves, marks],
  )
}
