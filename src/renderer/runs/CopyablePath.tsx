import { useId, useState } from 'react'

/** A path written out in full, selectable, with a Copy button (a browser cannot open folders). */
export function CopyablePath(props: { label: string; path: string }) {
  const id = useId()
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.path)
      setCopied('copied')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <div className="copy-path">
      <label htmlFor={id} className="copy-path-label">
        {props.label}
      </label>
      <div className="copy-path-row">
        <input
          id={id}
          className="copy-path-input"
          readOnly
          value={props.path}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn btn-secondary btn-small" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <span className="copy-path-state" role="status">
        {copied === 'copied'
          ? 'Copied.'
          : copied === 'failed'
            ? 'Could not copy: select the path and copy it by hand.'
            : ''}
      </span>
    </div>
  )
}
