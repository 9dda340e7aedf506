import { useEffect, useState } from 'react'
import { useStores, useApp, useEnvironments, useFields } from '../stores/context'
import { selectedEnvironment } from '../stores/environments-selectors'
import { EnvironmentSidebar } from './EnvironmentSidebar'
import { EnvironmentHeader } from './EnvironmentHeader'
import { ScreenNav } from './ScreenNav'
import { PrepareScreen } from '../screens/PrepareScreen'
import { RunsScreen } from '../screens/RunsScreen'
import { CreatorScreen, HistoryScreen, SettingsScreen, UsageScreen } from './lazy-screens'
import { Loading } from './on-demand'
import { AddEnvironmentDialog } from './AddEnvironmentDialog'
import { ErrorNotice } from './ErrorNotice'
import { useCutTextTitles } from './cut-text-titles'
import { LastFocused, useLastFocusedTracker, useScreenFocus } from './focus'

export function App() {
  const { app, environments, runs } = useStores()
  const envs = useFields('environments', 'items', 'selected', 'error', 'loading')
  const connection = useApp((s) => s.connection)
  const { screen, openRunId, openBatchOf } = useFields('nav', 'screen', 'openRunId', 'openBatchOf')
  const selected = selectedEnvironment(envs)
  useCutTextTitles()
  const lastFocused = useLastFocusedTracker()

  useEffect(() => {
    void app.getState().load()
    void environments.getState().load()
  }, [app, environments])

  useScreenFocus(screen, openBatchOf ? `batch of ${openBatchOf}` : openRunId)

  // Read again when a new token is given: what the old one was refused is not the news now.
  const tokenVersion = useEnvironments((s) => s.tokenVersion)
  useEffect(() => {
    if (selected?.name) void runs.getState().open(selected.name)
  }, [runs, selected?.name, tokenVersion])

  return (
    <LastFocused.Provider value={lastFocused}>
      <div className="app">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <EnvironmentSidebar />
        <main id="main" className="content" tabIndex={-1}>
          {connection === 'closed' && (
            <div className="banner" role="status">
              Reconnecting to Skill Runner’s engine… If this stays, start Skill Runner again and
              open the new address.
            </div>
          )}
          {envs.error && (
            <ErrorNotice error={envs.error} onRetry={() => void environments.getState().load()} />
          )}
          {selected ? (
            <>
              <div className="topbar">
                <EnvironmentHeader env={selected} />
                <ScreenNav />
              </div>
              {/* The one place that scrolls: the window itself never does, so the header and the
                tabs stay in view and a wheel never shows a blank half. */}
              <div className={`screen screen-${screen}`}>
                {screen === 'prepare' && <PrepareScreen env={selected} />}
                {screen === 'runs' && <RunsScreen env={selected} />}
                <Loading>
                  {screen === 'history' && <HistoryScreen env={selected} />}
                  {screen === 'creator' && <CreatorScreen env={selected} />}
                  {screen === 'usage' && <UsageScreen env={selected} />}
                  {screen === 'settings' && <SettingsScreen env={selected} />}
                </Loading>
              </div>
            </>
          ) : (
            !envs.error && <NoEnvironment loading={envs.loading} />
          )}
        </main>
      </div>
    </LastFocused.Provider>
  )
}

/**
 * Before the environments are known, or when none is left: says so, and offers the next step
 * as a button of its own (the sidebar's button is far from where the eye is).
 */
function NoEnvironment(props: { loading: boolean }) {
  const [adding, setAdding] = useState(false)
  return (
    <section className="empty-state" aria-live="polite">
      <h1>{props.loading ? 'Starting Skill Runner…' : 'No environment yet'}</h1>
      {!props.loading && (
        <>
          <p>Add the service you work with, or restart the app to get the built-in Sandbox back.</p>
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            Add environment
          </button>
          {adding && <AddEnvironmentDialog onClose={() => setAdding(false)} />}
        </>
      )}
    </section>
  )
}
