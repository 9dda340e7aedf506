import { useId } from 'react'

export interface ShowOption<V extends string> {
  value: V
  label: string
}

/** A list toolbar's "Show" choice: which of the list's items to show (by status, by state). */
export function ShowChoice<V extends string>(props: {
  value: V
  options: readonly ShowOption<V>[]
  onChange: (value: V) => void
}) {
  const id = useId()
  return (
    <>
      <label htmlFor={id} className="toolbar-label">
        Show
      </label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as V)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </>
  )
}
