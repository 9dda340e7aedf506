import { useEffect } from 'react'
import { listen } from './focus'

/** Marks a title this module wrote, so it is taken back when the text is no longer cut. */
const OWN = 'data-cut-title'

/** The nearest element, from `start` up a few levels, whose text is cut with "…". */
function ellipsisBox(start: EventTarget | null): HTMLElement | null {
  let el = start instanceof HTMLElement ? start : null
  for (let depth = 0; el && depth < 4; depth += 1, el = el.parentElement) {
    if (getComputedStyle(el).textOverflow === 'ellipsis') return el
  }
  return null
}

/** Gives `el` its whole text as a tooltip while it is cut; takes it back once it fits again. */
function titleIfCut(el: HTMLElement): void {
  const cut = el.scrollWidth > el.clientWidth + 1
  if (cut && !el.closest('[title]')) {
    el.title = (el.textContent ?? '').trim()
    el.setAttribute(OWN, '')
  } else if (!cut && el.hasAttribute(OWN)) {
    el.removeAttribute('title')
    el.removeAttribute(OWN)
  }
}

/**
 * Any name cut with "…" (a long file name in the runs list, the history, the creator's tables)
 * shows its whole text as a tooltip when the pointer or the focus reaches it, as desktop lists
 * do. Worked out on arrival, so it follows the window's width and every list gets it for free.
 */
export function useCutTextTitles(): void {
  useEffect(() => {
    const reach = (event: Event) => {
      const box = ellipsisBox(event.target)
      if (box) titleIfCut(box)
    }
    return listen(document, { pointerover: reach, focusin: reach })
  }, [])
}
