/**
 * The screens a window does not show first, each loaded the first time it is opened (its own
 * chunk in the renderer's build), so the first screen's JavaScript stays small. `bench/
 * bundle.bench.ts` prints what the first screen loads beside its target.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'

/** A named export of a module loaded on demand, as a component React can suspend on. */
function onDemand<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }))
}

export const HistoryScreen = onDemand(
  async () => (await import('../screens/HistoryScreen')).HistoryScreen,
)
export const CreatorScreen = onDemand(
  async () => (await import('../screens/CreatorScreen')).CreatorScreen,
)
export const SettingsScreen = onDemand(
  async () => (await import('../screens/SettingsScreen')).SettingsScreen,
)
export const UsageScreen = onDemand(
  async () => (await import('../screens/UsageScreen')).UsageScreen,
)
export const RunDetail = onDemand(async () => (await import('../runs/RunDetail')).RunDetail)
export const CompareCard = onDemand(
  async () => (await import('../compare/CompareCard')).CompareCard,
)

/** While a screen's code arrives: a quiet line, said once to a screen reader. */
export function Loading(props: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="muted" role="status">
          Opening…
        </p>
      }
    >
      {props.children}
    </Suspense>
  )
}
