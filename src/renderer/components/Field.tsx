import { useId, type InputHTMLAttributes } from 'react'

/** A labelled text field with its hint and error wired for screen readers. */
export function Field(
  props: {
    label: string
    hint?: string
    error?: string | undefined
  } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, hint, error, ...input } = props
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy =
    [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  )
}
