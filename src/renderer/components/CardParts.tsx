import type { ReactNode } from 'react'

/**
 * The head of a card: its title (the card is labelled by `titleId`), one line under it, and on
 * the right whatever acts on the card (`children`). `live` has screen readers say the line again
 * when it changes, for lines that count what a list holds.
 */
export function CardHead(props: {
  titleId: string
  title: ReactNode
  sub: ReactNode
  /** Heading level 3 for a card inside a page whose h2 is elsewhere. */
  level?: 2 | 3
  live?: boolean
  children?: ReactNode
}) {
  const Heading = props.level === 3 ? 'h3' : 'h2'
  return (
    <div className="card-head">
      <div>
        <Heading id={props.titleId}>{props.title}</Heading>
        <p className="card-sub" aria-live={props.live ? 'polite' : undefined}>
          {props.sub}
        </p>
      </div>
      {props.children}
    </div>
  )
}

/**
 * A card: a section labelled by its head's title, the head (see CardHead; `tools` go at its
 * right), then what the card holds.
 */
export function Card(
  props: Omit<Parameters<typeof CardHead>[0], 'children'> & {
    className?: string
    tools?: ReactNode
    busy?: boolean
    testId?: string
    children?: ReactNode
  },
) {
  const { className, tools, busy, testId, children, ...head } = props
  return (
    <section
      className={className ? `card ${className}` : 'card'}
      aria-labelledby={head.titleId}
      aria-busy={busy}
      data-testid={testId}
    >
      <CardHead {...head}>{tools}</CardHead>
      {children}
    </section>
  )
}

/** What a list says when it has nothing to show: why, and what would put something there. */
export function EmptyList(props: {
  title: ReactNode
  children: ReactNode
  /** The button that does the next step the text names. */
  action?: { label: string; onClick: () => void }
}) {
  return (
    <div className="empty-runs">
      <p className="empty-title">{props.title}</p>
      <p>{props.children}</p>
      {props.action && (
        <button type="button" className="btn btn-secondary" onClick={props.action.onClick}>
          {props.action.label}
        </button>
      )}
    </div>
  )
}

/**
 * What only support or the CLI needs (a run's id, pricing terms' version), folded away under
 * "Details" so a buyer's screen speaks in words and the ids are still there to copy.
 */
/** The command that installs a keychain, folded under Details: the buyer's screens name no command. */
export function KeychainCommand(props: { command?: string | undefined }) {
  if (!props.command) return null
  return (
    <Details>
      <p>
        On Debian or Ubuntu, in a terminal: <code>{props.command}</code>
      </p>
    </Details>
  )
}

export function Details(props: { children: ReactNode; open?: boolean }) {
  return (
    // Opened by the screen when the user asked for what it holds (a path to copy in a browser).
    <details className="more-details" open={props.open || undefined}>
      <summary>Details</summary>
      <div className="more-details-body">{props.children}</div>
    </details>
  )
}
