/** Plain selector functions of the environments store; tested like any function. */
import type { BridgeErrorInfo, ConnectionReport, EnvironmentView } from '../../shared/bridge'

export interface ConnectionCheckState {
  running: boolean
  report: ConnectionReport | null
  error: BridgeErrorInfo | null
}

export interface EnvironmentsData {
  items: EnvironmentView[]
  selected: string | null
  loading: boolean
  error: BridgeErrorInfo | null
  checks: Record<string, ConnectionCheckState>
}

/** The built-in Sandbox first, then the rest by name. */
export function sortedEnvironments(state: Pick<EnvironmentsData, 'items'>): EnvironmentView[] {
  return [...state.items].sort((a, b) => {
    if (a.builtIn !== b.builtIn) return a.builtIn ? -1 : 1
    return a.name.localeCompare(b.name)
  })
}

/** The environment on screen: the chosen one, else the default, else the first. */
export function selectedEnvironment(
  state: Pick<EnvironmentsData, 'items' | 'selected'>,
): EnvironmentView | null {
  const { items, selected } = state
  return (
    items.find((e) => e.name === selected) ??
    items.find((e) => e.isDefault) ??
    sortedEnvironments(state)[0] ??
    null
  )
}

export const idleCheck: ConnectionCheckState = { running: false, report: null, error: null }

export function checkFor(
  state: Pick<EnvironmentsData, 'checks'>,
  name: string,
): ConnectionCheckState {
  return state.checks[name] ?? idleCheck
}

/** The name offered in an empty "Add environment" form that is not taken yet. */
export function suggestedEnvironmentName(state: Pick<EnvironmentsData, 'items'>): string {
  const taken = new Set(state.items.map((e) => e.name.toLowerCase()))
  if (!taken.has('production')) return 'Production'
  for (let i = 2; ; i++) if (!taken.has(`service ${i}`)) return `Service ${i}`
}
