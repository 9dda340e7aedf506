import { useId, type InputHTMLAttributes, type ReactNode } from 'react'

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

/** A box to tick, inside its words; `className` is the label's look ("check", "check-label"). */
export function Checkbox(props: {
  className: string
  checked: boolean
  onChange: (checked: boolean) => void
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <label className={props.className}>
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        disabled={props.disabled}
      />
      {props.children}
    </label>
  )
}
