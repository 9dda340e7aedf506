/**
 * The screens a window does not show first, each loaded the first time it is opened (its own
 * chunk in the renderer's build), so the first screen's JavaScript stays small. `bench/
 * bundle.bench.ts` prints what the first screen loads beside its target.
 */
import { onDemand } from './on-demand'

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
export const BatchPage = onDemand(async () => (await import('../batch/BatchPage')).BatchPage)
