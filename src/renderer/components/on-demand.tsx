/** Code loaded on demand: a component from a chunk of its own, and what shows while it comes. */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'

/** A named export of a module loaded on demand, as a component React can suspend on. */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }))
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
