import { createContext, useContext, useEffect, useRef, type RefObject } from 'react'

// Where the keyboard focus goes when the control that had it goes away: a dialog closing, a
// button disabled while a workbook is read, a screen replaced. Never the page's body, where the
// next Tab would start over from the top of the window.

const TABBABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])'

/** The controls inside `root` that Tab reaches, in order; hidden ones are left out. */
export function tabbables(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0,
  )
}

/** Whether the focus has fallen to the page's body (or nowhere). */
export function focusLost(): boolean {
  const active = document.activeElement
  return !active || active === document.body || !active.isConnected
}

/** Whether `el` can take the focus back: still in the page, shown and not disabled. */
export function canTakeFocus(el: Element | null | undefined): el is HTMLElement {
  return (
    el instanceof HTMLElement &&
    el !== document.body &&
    el.isConnected &&
    !el.matches(':disabled') &&
    el.getClientRects().length > 0
  )
}

/**
 * Moves the focus to the start of the screen shown: its first heading, made focusable for the
 * purpose, so a screen reader reads where the user now is and Tab goes on from there.
 */
export function focusScreenStart(): void {
  const heading = document.querySelector<HTMLElement>('.screen h2, .screen h1')
  const target = heading ?? document.querySelector<HTMLElement>('#main')
  if (!target) return
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1
  target.focus({ preventScroll: false })
  // A screen loaded on demand has no heading yet: its heading takes the focus when it comes,
  // unless the user has moved on meanwhile.
  if (!heading) focusHeadingWhenShown(target)
}

/** How long a screen loaded on demand may take before its heading no longer takes the focus. */
const HEADING_WAIT_MS = 5000

function focusHeadingWhenShown(waiting: HTMLElement): void {
  const observer = new MutationObserver(() => {
    const heading = document.querySelector<HTMLElement>('.screen h2, .screen h1')
    if (!heading) return
    stop()
    if (document.activeElement !== waiting && !focusLost()) return
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
    heading.focus({ preventScroll: false })
  })
  const timer = setTimeout(() => stop(), HEADING_WAIT_MS)
  const stop = () => {
    observer.disconnect()
    clearTimeout(timer)
  }
  observer.observe(waiting.closest('#main') ?? document.body, { childList: true, subtree: true })
}

/**
 * Adds `listeners` (by event name) to `target` and answers what takes them off again, for an
 * effect to return.
 */
export function listen(
  target: EventTarget,
  listeners: Record<string, (event: never) => void>,
): () => void {
  const added = Object.entries(listeners) as [string, EventListener][]
  for (const [name, listener] of added) target.addEventListener(name, listener)
  return () => {
    for (const [name, listener] of added) target.removeEventListener(name, listener)
  }
}

/** The control that last had the focus, kept by the App for the whole window. */
export const LastFocused = createContext<RefObject<Element | null>>({ current: null })

/**
 * Remembers the control that last had the focus: a button disabled the moment it is pressed
 * ("Review the cost and send…" while the cost is worked out) is still the one a dialog it opens
 * gives the focus back to.
 */
export function useLastFocusedTracker(): RefObject<Element | null> {
  const last = useRef<Element | null>(null)
  useEffect(() => {
    const remember = (event: FocusEvent) => {
      if (event.target instanceof Element && !event.target.closest('dialog')) {
        last.current = event.target
      }
    }
    // A focused heading replaced by its next version (a run's title once the run has loaded)
    // hands the focus on to the new one instead of dropping it on the body.
    const handOn = (event: FocusEvent) => {
      const gone = event.target
      if (event.relatedTarget || !(gone instanceof HTMLElement) || !gone.id) return
      requestAnimationFrame(() => {
        const next = document.getElementById(gone.id)
        if (gone.isConnected || !next || !focusLost()) return
        if (!next.hasAttribute('tabindex')) next.tabIndex = -1
        next.focus()
      })
    }
    return listen(document, { focusin: remember, focusout: handOn })
  }, [])
  return last
}

/** What a dialog opening now should give the focus back to when it closes. */
export function useOpener(): () => Element | null {
  const last = useContext(LastFocused)
  return () => (focusLost() ? last.current : document.activeElement)
}

/**
 * A zone's button is disabled while its files are read, which drops the focus on the page's
 * body: once read, the focus goes on to what the reading found (`nextFocus`), or back to
 * `fallback`, when it was in the zone or lost.
 */
export function useFocusAfterBusy(
  busy: boolean,
  zone: RefObject<HTMLElement | null>,
  fallback: RefObject<HTMLElement | null>,
  nextFocus?: () => HTMLElement | null,
): void {
  const wasBusy = useRef(false)
  useEffect(() => {
    if (busy) {
      wasBusy.current = true
      return
    }
    if (!wasBusy.current) return
    wasBusy.current = false
    if (!focusLost() && !zone.current?.contains(document.activeElement)) return
    const next = nextFocus?.() ?? null
    if (canTakeFocus(next)) next.focus()
    else fallback.current?.focus()
  }, [busy, zone, fallback, nextFocus])
}

/**
 * A screen shown by something other than its tab (a run sent, a run opened from the history)
 * may leave the focus on the body: it goes to the new screen's start instead. Not on start, so
 * the first Tab reaches the skip link, as on any page.
 */
export function useScreenFocus(screen: string, openRunId: string | null): void {
  const shownBefore = useRef(false)
  useEffect(() => {
    if (shownBefore.current && focusLost()) focusScreenStart()
    shownBefore.current = true
  }, [screen, openRunId])
}

/** The first control Tab would reach after `el` (outside it), e.g. once `el` is dismissed. */
export function tabbableAfter(el: Element | null): HTMLElement | null {
  if (!el) return null
  return (
    tabbables(document).find(
      (item) =>
        !el.contains(item) &&
        Boolean(el.compareDocumentPosition(item) & Node.DOCUMENT_POSITION_FOLLOWING),
    ) ?? null
  )
}
