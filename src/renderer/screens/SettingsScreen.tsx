import type { EnvironmentView } from '../../shared/bridge'
import { Details } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { SettingsForm } from '../settings/SettingsForm'
import { useStores, useFields } from '../stores/context'

/** Where outputs are saved, notifications, downloads at once, the unit of amounts, the theme. */
export function SettingsScreen(props: { env: EnvironmentView }) {
  const { settings: store, bridge } = useStores()
  const { settings, loading, error } = useFields('settings', 'settings', 'loading', 'error')
  return (
    <section className="card" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <p className="card-sub">
        Kept in Skill Runner’s history on this computer and shared by the desktop app and the
        browser mode.
      </p>
      <Details>
        <p>The command line saves outputs where its -o option says.</p>
      </Details>
      {loading && !settings && (
        <p className="card-sub" role="status">
          Loading the settings…
        </p>
      )}
      {error && !settings && (
        <ErrorNotice error={error} onRetry={() => void store.getState().load()} />
      )}
      {settings && (
        <SettingsForm settings={settings} env={props.env} desktop={bridge.shell === 'electron'} />
      )}
    </section>
  )
}
