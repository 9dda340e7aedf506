import { useEffect, useRef, type ReactNode } from 'react'

/** A modal dialog on the native <dialog> element: focus stays inside, Escape closes it. */
export function Dialog(props: {
  title: string
  description?: string
  onClose: () => void
  children: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const { onClose } = props
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (!dialog.open) dialog.showModal()
    const cancel = (event: Event) => {
      event.preventDefault()
      onClose()
    }
    dialog.addEventListener('cancel', cancel)
    return () => {
      dialog.removeEventListener('cancel', cancel)
      if (dialog.open) dialog.close()
    }
  }, [onClose])
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
