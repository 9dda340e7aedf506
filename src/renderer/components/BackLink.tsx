import type { ReactNode } from 'react'

/** The quiet button at the top of a page opened from another, back to where it was opened. */
export function BackLink(props: { onBack: () => void; children: ReactNode }) {
  return (
    <button type="button" className="btn btn-quiet back-link" onClick={props.onBack}>
      {props.children}
    </button>
  )
}
