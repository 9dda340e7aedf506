import { useEffect, useId, useState } from 'react'

/**
 * A search box that asks for results once the user pauses typing (`delayMs`; 0 asks at every
 * key, for searches of what is already loaded). `value` is the search in effect.
 */
export function SearchField(props: {
  label: string
  placeholder: string
  value: string
  onSearch: (text: string) => void
  delayMs?: number
}) {
  const id = useId()
  const [typed, setTyped] = useState(props.value)
  const { value, onSearch } = props
  const delay = props.delayMs ?? 250
  useEffect(() => {
    if (typed === value || delay === 0) return
    const timer = window.setTimeout(() => onSearch(typed), delay)
    return () => window.clearTimeout(timer)
  }, [typed, value, delay, onSearch])
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {props.label}
      </label>
      <input
        id={id}
        type="search"
        className="search-input"
        placeholder={props.placeholder}
        value={delay === 0 ? value : typed}
        onChange={(e) => (delay === 0 ? onSearch(e.target.value) : setTyped(e.target.value))}
      />
    </>
  )
}
