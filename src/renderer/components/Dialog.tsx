import { useEffect, useRef, type ReactNode } from 'react'
import { canTakeFocus, focusScreenStart, listen, tabbables, useOpener } from './focus'

/**
 * A modal dialog on the native <dialog> element. Tab and Shift+Tab go round its own controls
 * (the browser alone would let them out to its address bar), Escape closes it, and on closing
 * the focus goes back to what opened it, or to the start of the screen if that is gone.
 */
export function Dialog(props: {
  title: string
  description?: string
  onClose: () => void
  children: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  // The latest onClose without reopening the dialog whenever the caller makes a new one.
  const onClose = useRef(props.onClose)
  onClose.current = props.onClose
  const findOpener = useRef(useOpener())
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = findOpener.current()
    if (!dialog.open) dialog.showModal()
    const cancel = (event: Event) => {
      event.preventDefault()
      onClose.current()
    }
    const keepTabInside = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return
      const items = tabbables(dialog)
      const first = items[0]
      const last = items.at(-1)
      if (!first || !last) return
      const active = document.activeElement
      const outside = !dialog.contains(active)
      if (event.shiftKey && (active === first || outside)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (active === last || outside)) {
        event.preventDefault()
        first.focus()
      }
    }
    const unlisten = listen(dialog, { cancel, keydown: keepTabInside })
    return () => {
      unlisten()
      if (dialog.open) dialog.close()
      if (canTakeFocus(opener)) opener.focus()
      else focusScreenStart()
    }
  }, [])
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="dialog-title"
      aria-describedby="dialog-description"
    >
      <h2 id="dialog-title">{props.title}</h2>
      {props.description && (
        <p id="dialog-description" className="dialog-description">
          {props.description}
        </p>
      )}
      {props.children}
    </dialog>
  )
}
