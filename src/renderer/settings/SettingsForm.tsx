import { useEffect, useId, useState, type ReactNode } from 'react'
import type {
  BridgeErrorInfo,
  EnvironmentView,
  SettingsView,
  ThemeChoice,
} from '../../shared/bridge'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { Checkbox } from '../components/Field'
import { Details } from '../components/CardParts'

const THEMES: { id: ThemeChoice; label: string }[] = [
  { id: 'system', label: 'Same as the system' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
]

/** One setting's status line: saved, or what went wrong. */
function Status(props: { state: 'idle' | 'saved' | BridgeErrorInfo; id?: string }) {
  if (props.state === 'idle') return <span className="setting-status" role="status" id={props.id} />
  if (props.state === 'saved')
    return (
      <span className="setting-status" role="status" id={props.id}>
        Saved.
      </span>
    )
  return (
    <span className="setting-status setting-error" role="alert" id={props.id}>
      {props.state.message} {props.state.nextStep}
    </span>
  )
}

type SaveState = 'idle' | 'saved' | BridgeErrorInfo

export function SettingsForm(props: {
  settings: SettingsView
  env: EnvironmentView
  desktop: boolean
}) {
  const { settings: store } = useStores()
  const { settings } = props
  const save = async (patch: Parameters<ReturnType<typeof store.getState>['update']>[0]) => {
    const ok = await store.getState().update(patch)
    const error = store.getState().error
    store.getState().clearError()
    return ok ? ('saved' as const) : (error ?? ('idle' as const))
  }
  return (
    <div className="settings-list">
      <FolderSetting
        settings={settings}
        save={save}
        desktop={props.desktop}
        choose={async () => {
          const ok = await store.getState().chooseFolder()
          const error = store.getState().error
          store.getState().clearError()
          return ok === null ? null : ok ? ('saved' as const) : (error ?? ('idle' as const))
        }}
      />
      <ThemeSetting value={settings.theme} save={save} />
      <NotificationsSetting value={settings.notifications} desktop={props.desktop} save={save} />
      <AutoSaveSetting value={settings.autoSaveOutputs} save={save} />
      <ConcurrencySetting value={settings.downloadConcurrency} save={save} />
      <UnitLabelSetting env={props.env} />
      <MonthlyLimitSetting env={props.env} />
    </div>
  )
}

/**
 * What the user is typing into a setting, and how saving it went. The draft follows the saved
 * value when that changes elsewhere; editing clears the last answer.
 */
function useDraft(saved: string) {
  const [value, setValue] = useState(saved)
  const [state, setState] = useState<SaveState>('idle')
  useEffect(() => setValue(saved), [saved])
  const edit = (next: string) => {
    setValue(next)
    setState('idle')
  }
  /** Saves through the Bridge: "saved", or what went wrong, beside the field. */
  const store = async (send: () => Promise<unknown>) => {
    try {
      await send()
      setState('saved')
    } catch (error) {
      setState(errorInfo(error))
    }
  }
  return { value, edit, state, setState, store }
}

type Save = (patch: {
  outputsFolder?: string
  notifications?: boolean
  downloadConcurrency?: number
  theme?: ThemeChoice
  autoSaveOutputs?: boolean
}) => Promise<SaveState>

function FolderSetting(props: {
  settings: SettingsView
  save: Save
  desktop: boolean
  /** The desktop's folder picker: null when the user cancelled. */
  choose: () => Promise<SaveState | null>
}) {
  const { value, edit, state, setState } = useDraft(props.settings.outputsFolder)
  return (
    <TypedSetting
      title="Outputs folder"
      hint={
        <>
          Saved outputs and results workbooks go here, one folder per run. Default:{' '}
          <code>{props.settings.defaultOutputsFolder}</code>
        </>
      }
      state={state}
      unchanged={value.trim() === props.settings.outputsFolder}
      onSubmit={async () => setState(await props.save({ outputsFolder: value }))}
      field={(ids) => (
        <input
          id={ids.id}
          className="setting-wide"
          value={value}
          spellCheck={false}
          aria-invalid={typeof state === 'object' || undefined}
          aria-describedby={`${ids.hintId} ${ids.statusId}`}
          onChange={(e) => edit(e.target.value)}
        />
      )}
      more={
        <>
          {props.desktop && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => void props.choose().then((result) => result && setState(result))}
            >
              Choose…
            </button>
          )}
          {props.settings.outputsFolder !== props.settings.defaultOutputsFolder && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() =>
                void props
                  .save({ outputsFolder: props.settings.defaultOutputsFolder })
                  .then(setState)
              }
            >
              Use the default
            </button>
          )}
        </>
      }
    />
  )
}

function ThemeSetting(props: { value: ThemeChoice; save: Save }) {
  const name = useId()
  const [state, setState] = useState<SaveState>('idle')
  // The choice shows at once; the engine's answer confirms it (or puts the old one back).
  const [chosen, setChosen] = useState(props.value)
  useEffect(() => setChosen(props.value), [props.value])
  return (
    <fieldset className="setting">
      <legend className="setting-title">Theme</legend>
      <div className="setting-row" role="radiogroup" aria-label="Theme">
        {THEMES.map((theme) => (
          <label key={theme.id} className="radio">
            <input
              type="radio"
              name={name}
              value={theme.id}
              checked={chosen === theme.id}
              onChange={() => {
                setChosen(theme.id)
                void props.save({ theme: theme.id }).then((result) => {
                  setState(result)
                  if (result !== 'saved') setChosen(props.value)
                })
              }}
            />
            {theme.label}
          </label>
        ))}
      </div>
      <Status state={state} />
    </fieldset>
  )
}

function NotificationsSetting(props: { value: boolean; desktop: boolean; save: Save }) {
  const [state, setState] = useState<SaveState>('idle')
  return (
    <fieldset className="setting">
      <legend className="setting-title">Notifications</legend>
      <Checkbox
        className="check"
        checked={props.value}
        onChange={(checked) => void props.save({ notifications: checked }).then(setState)}
      >
        Tell me when a run I started from this computer ends
      </Checkbox>
      <p className="setting-hint">
        {props.desktop
          ? 'A desktop notification, even when the window is in the background.'
          : 'Shown by the desktop app; in a browser the runs list shows the end instead.'}
      </p>
      <Status state={state} />
    </fieldset>
  )
}

function AutoSaveSetting(props: { value: boolean; save: Save }) {
  const [state, setState] = useState<SaveState>('idle')
  return (
    <fieldset className="setting">
      <legend className="setting-title">Keep outputs</legend>
      <Checkbox
        className="check"
        checked={props.value}
        onChange={(checked) => void props.save({ autoSaveOutputs: checked }).then(setState)}
      >
        Save every run’s outputs as soon as the run ends
      </Checkbox>
      <p className="setting-hint">
        Into the folder above, while the app is open. The service’s links to outputs may stop
        working after a while; saved files stay.
      </p>
      <Details>
        <p>
          On the command line, <code>--watch</code> saves them the same way.
        </p>
      </Details>
      <Status state={state} />
    </fieldset>
  )
}

function ConcurrencySetting(props: { value: number; save: Save }) {
  const { value, edit, state, setState } = useDraft(String(props.value))
  return (
    <TypedSetting
      title="Downloads at once"
      hint="How many files are fetched at the same time when outputs are saved (1 to 32). More is faster on a distant service; fewer is gentler on a slow connection."
      state={state}
      unchanged={value === String(props.value)}
      onSubmit={() => props.save({ downloadConcurrency: Number(value) }).then(setState)}
      field={(ids) => (
        <input
          id={ids.id}
          type="number"
          min={1}
          max={32}
          step={1}
          className="setting-narrow"
          value={value}
          aria-describedby={ids.hintId}
          onChange={(e) => edit(e.target.value)}
        />
      )}
    />
  )
}

function UnitLabelSetting(props: { env: EnvironmentView }) {
  const { bridge } = useStores()
  const { value, edit, state, store } = useDraft(props.env.unitLabel)
  const submit = () =>
    store(() => bridge.api.setUnitLabel({ environment: props.env.name, unitLabel: value }))
  return (
    <TypedSetting
      title={`Unit of amounts in ${props.env.name}`}
      hint="The word shown after costs, as your service counts them (e.g. credits). Amounts are never converted."
      state={state}
      unchanged={value.trim() === props.env.unitLabel}
      onSubmit={submit}
      field={(ids) => (
        <input
          id={ids.id}
          className="setting-narrow-text"
          value={value}
          maxLength={32}
          aria-describedby={ids.hintId}
          onChange={(e) => edit(e.target.value)}
        />
      )}
    />
  )
}

/** The monthly spending limit of the environment, kept on this computer; empty is no limit. */
function MonthlyLimitSetting(props: { env: EnvironmentView }) {
  const { bridge } = useStores()
  const saved = props.env.monthlyLimitT ? String(props.env.monthlyLimitT) : ''
  const { value, edit, state, setState, store } = useDraft(saved)
  const submit = async () => {
    const text = value.trim()
    if (text !== '' && !/^[1-9]\d{0,14}$/.test(text)) {
      setState({
        code: 'invalid-arguments',
        message: 'The limit is a whole number above 0.',
        nextStep: 'Type a whole number, or leave the field empty for no limit.',
      })
      return
    }
    const limitT = text === '' ? null : Number(text)
    await store(() => bridge.api.setMonthlyLimit({ environment: props.env.name, limitT }))
  }
  return (
    <TypedSetting
      title={`Monthly spending limit in ${props.env.name}`}
      hint={`In ${props.env.unitLabel || 'credits'}; empty for no limit. A send whose estimate would take this month past it is refused, and at 80% the confirm step says what is left. Kept by this computer, not by the service: runs sent from elsewhere count, but are not stopped.`}
      state={state}
      unchanged={value.trim() === saved}
      onSubmit={submit}
      field={(ids) => (
        <input
          id={ids.id}
          className="setting-narrow-text"
          inputMode="numeric"
          value={value}
          maxLength={15}
          aria-describedby={ids.hintId}
          onChange={(e) => edit(e.target.value)}
        />
      )}
    />
  )
}

/**
 * A setting typed into a field and saved with its own Save button (off while the field holds
 * what is saved): its title, a hint, the field, any `more` buttons, and how saving went.
 */
function TypedSetting(props: {
  title: string
  hint: ReactNode
  state: SaveState
  unchanged: boolean
  onSubmit: () => Promise<void>
  /** The input, given the ids its label, hint and status line use. */
  field: (ids: { id: string; hintId: string; statusId: string }) => ReactNode
  more?: ReactNode
}) {
  const id = useId()
  const ids = { id, hintId: `${id}-hint`, statusId: `${id}-status` }
  return (
    <form
      className="setting"
      onSubmit={(e) => {
        e.preventDefault()
        void props.onSubmit()
      }}
    >
      <label htmlFor={id} className="setting-title">
        {props.title}
      </label>
      <p className="setting-hint" id={ids.hintId}>
        {props.hint}
      </p>
      <div className="setting-row">
        {props.field(ids)}
        <button type="submit" className="btn btn-primary" disabled={props.unchanged}>
          Save
        </button>
        {props.more}
      </div>
      <Status state={props.state} id={ids.statusId} />
    </form>
  )
}
