import { useRef } from 'react'
import type { BridgeErrorInfo } from '../../shared/bridge'
import { canTakeFocus, focusLost, focusScreenStart, tabbableAfter } from './focus'

/** An error as the user needs it: what happened, then what to do next. */
export function ErrorNotice(props: {
  error: BridgeErrorInfo
  onRetry?: () => void
  onDismiss?: () => void
}) {
  // The engine's words are shown as they are: it never puts internals in them.
  const { error, onRetry, onDismiss } = props
  const notice = useRef<HTMLDivElement>(null)
  // Dismissed, the notice takes its button away: the focus goes on to what follows it.
  const dismiss = () => {
    const next = tabbableAfter(notice.current)
    onDismiss?.()
    requestAnimationFrame(() => {
      if (!focusLost()) return
      if (canTakeFocus(next)) next.focus()
      else focusScreenStart()
    })
  }
  return (
    <div ref={notice} className="notice notice-error" role="alert">
      <Icon />
      <div className="notice-text">
        <p className="notice-title">{error.message}</p>
        <p className="notice-next">{error.nextStep}</p>
      </div>
      <div className="notice-actions">
        {onRetry && (
          <button type="button" className="btn btn-small" onClick={onRetry}>
            Try again
          </button>
        )}
        {onDismiss && (
          <button type="button" className="btn btn-small btn-quiet" onClick={dismiss}>
            Dismiss
          </button>
        )}
      </div>
    </div>
  )
}

function Icon() {
  return (
    <svg className="notice-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="8.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M10 5.5v5.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="10" cy="14" r="1.1" fill="currentColor" />
    </svg>
  )
}
