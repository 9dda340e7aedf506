import { useEffect, useId, useState, type ReactNode } from 'react'

interface SearchProps {
  label: string
  placeholder: string
  value: string
  onSearch: (text: string) => void
  delayMs?: number
}

/**
 * A search box that asks for results once the user pauses typing (`delayMs`; 0 asks at every
 * key, for searches of what is already loaded). `value` is the search in effect.
 */
function SearchField(props: SearchProps) {
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

/** A list's toolbar: its search box first, then what else acts on the list (`children`). */
export function SearchToolbar(props: SearchProps & { children?: ReactNode }) {
  const { children, ...search } = props
  return (
    <div className="toolbar">
      <SearchField {...search} />
      {children}
    </div>
  )
}
