import { useNav, useStores } from '../stores/context'
import { SCREENS } from '../stores/nav-store'

/** The row of screens at the top of the content: one button each, the current one marked. */
export function ScreenNav() {
  const { nav } = useStores()
  const screen = useNav((s) => s.screen)
  return (
    <nav className="screen-nav" aria-label="Screens">
      {SCREENS.map((s) => (
        <button
          key={s.id}
          type="button"
          className="screen-tab"
          aria-current={s.id === screen ? 'page' : undefined}
          onClick={() => nav.getState().show(s.id)}
        >
          {s.label}
        </button>
      ))}
    </nav>
  )
}
