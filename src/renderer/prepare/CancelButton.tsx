import { useEffect, useRef } from 'react'

/**
 * Cancel for work the user may stop (uploading the files, working out the cost). Once stopped by
 * Cancel, which is gone then, the focus goes to the button that starts the work again: give it
 * `restart` as its ref, and `cancel` to CancelButton.
 */
export function useCancel(stopped: boolean, stop: () => void) {
  const restart = useRef<HTMLButtonElement>(null)
  const cancelled = useRef(false)
  useEffect(() => {
    if (stopped && cancelled.current) restart.current?.focus()
    cancelled.current = false
  }, [stopped])
  const cancel = () => {
    cancelled.current = true
    stop()
  }
  return { restart, cancel }
}

export function CancelButton(props: { onCancel: () => void }) {
  return (
    <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
      Cancel
    </button>
  )
}
