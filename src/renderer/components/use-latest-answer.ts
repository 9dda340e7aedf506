import { useEffect, type DependencyList } from 'react'

/**
 * Asks again whenever `deps` change and hands the answer to `keep`, unless the deps changed again
 * or the component went away before it came: a late answer to an earlier question is dropped.
 * `ask` answers null when there is nothing to ask, and turns its own failures into an answer.
 */
export function useLatestAnswer<T>(
  ask: () => Promise<T> | null,
  keep: (answer: T) => void,
  deps: DependencyList,
): void {
  useEffect(() => {
    const asked = ask()
    if (!asked) return
    let current = true
    void asked.then((answer) => {
      if (current) keep(answer)
    })
    return () => {
      current = false
    }
    // The caller names what the question depends on, as it would for its own effect.
  }, deps)
}
