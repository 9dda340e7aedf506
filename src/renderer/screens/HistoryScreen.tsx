import { useCallback, useEffect } from 'react'
import type { EnvironmentView, HistoryEntryView } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { SearchToolbar } from '../components/SearchField'
import { HistoryList } from '../history/HistoryList'
import { useApp, useFields, useStores } from '../stores/context'
import { Card, EmptyList } from '../components/CardParts'

/** Every submission from this computer, searchable offline; opening one opens its run. */
export function HistoryScreen(props: { env: EnvironmentView }) {
  const { history, nav, environments } = useStores()
  const { items, search, loading, loaded, more, error } = useFields(
    'history',
    'items',
    'search',
    'loading',
    'loaded',
    'more',
    'error',
  )
  const connection = useApp((s) => s.connection)

  useEffect(() => {
    void history.getState().load()
  }, [history])
  const setSearch = useCallback(
    (text: string) => void history.getState().setSearch(text),
    [history],
  )

  const open = useCallback(
    (entry: HistoryEntryView) => {
      if (entry.environment !== props.env.name) environments.getState().select(entry.environment)
      nav.getState().openRun(entry.runId)
    },
    [environments, nav, props.env.name],
  )
  const loadMore = useCallback(() => void history.getState().loadMore(), [history])

  return (
    <Card
      titleId="history-title"
      title="History"
      sub={
        loading && !loaded
          ? 'Loading the history…'
          : `What this computer sent, in every environment${
              loaded ? ` · ${items.length}${more ? '+' : ''} shown` : ''
            }. Kept on this computer: it works offline.`
      }
      live
      className="runs"
      tools={
        <SearchToolbar
          label="Search the history"
          placeholder="Search file, template, run, status, date"
          value={search}
          onSearch={setSearch}
        />
      }
    >
      {connection === 'closed' && (
        <p className="card-sub" role="status">
          The engine is not answering; the history shows what was loaded before.
        </p>
      )}
      {error && <ErrorNotice error={error} onRetry={() => void history.getState().load()} />}
      {loaded && items.length === 0 && !error ? (
        <NoHistory search={search.trim()} onClear={() => setSearch('')} />
      ) : (
        items.length > 0 && (
          <HistoryList items={items} onOpen={open} {...(more ? { onEndReached: loadMore } : {})} />
        )
      )}
    </Card>
  )
}

/** The empty history: nothing matches the search (clear it), or nothing sent yet (start a run). */
function NoHistory(props: { search: string; onClear: () => void }) {
  const { nav } = useStores()
  return (
    <EmptyList
      action={
        props.search
          ? { label: 'Clear the search', onClick: props.onClear }
          : { label: 'Start a new run', onClick: () => nav.getState().show('prepare') }
      }
      title={
        props.search
          ? `Nothing in the history matches “${props.search}”.`
          : 'Nothing submitted yet.'
      }
    >
      {props.search
        ? 'Search by file name, template or listing, status, environment or date, or clear the search.'
        : 'Start a new run: what you send from this computer is listed here, with its files, costs and saved outputs.'}
    </EmptyList>
  )
}
