/** Code loaded on demand: a component from a chunk of its own, and what shows while it comes. */
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'

/** A component loaded on demand, with a way to fetch its code before it is first drawn. */
export type OnDemand<P extends object> = ComponentType<P> & {
  /** Fetches the code now, so the component draws at once when it is first needed. */
  preload(): void
}

/**
 * A named export of a module loaded on demand. Until its code has come it suspends (the nearest
 * `Loading` shows); once fetched (drawn before, or `preload()`ed) it draws at once, so a
 * dialog whose code was fetched ahead never flashes a loading line.
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): OnDemand<P> {
  let loaded: ComponentType<P> | null = null
  let loading: Promise<ComponentType<P>> | null = null
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A chunk that did not come is asked for again the next time.
        loading = null
        throw error
      },
    ))
  const Suspending = lazy(async () => ({ default: await fetchCode() }))
  function Drawn(props: P) {
    // Chosen once per mount: changing from one to the other would draw the subtree anew.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Suspending)
    return <Component {...props} />
  }
  return Object.assign(Drawn, { preload: () => void fetchCode().catch(() => {}) })
}

/** While a screen's code arrives: a quiet line, said once to a screen reader. */
export function Loading(props: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="muted" role="status" data-on-demand="">
          Opening…
        </p>
      }
    >
      {props.children}
    </Suspense>
  )
}
