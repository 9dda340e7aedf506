/**
 * Which screen the window shows. Screens are plain names; a run opened from anywhere (the runs
 * list, the history, a finished submission) is named by its id.
 */
import { createStore } from 'zustand/vanilla'

export type Screen = 'prepare' | 'runs' | 'history' | 'creator' | 'usage' | 'settings'

export const SCREENS: readonly { id: Screen; label: string }[] = [
  { id: 'prepare', label: 'New run' },
  { id: 'runs', label: 'Runs' },
  { id: 'history', label: 'History' },
  { id: 'creator', label: 'Creator' },
  { id: 'usage', label: 'Usage' },
  { id: 'settings', label: 'Settings' },
]

export interface NavData {
  screen: Screen
  /** The run whose detail is open on the Runs screen, if any. */
  openRunId: string | null
}

export interface NavActions {
  show(screen: Screen): void
  openRun(runId: string): void
  closeRun(): void
}

export function createNavStore(initial: Partial<NavData> = {}) {
  return createStore<NavData & NavActions>()((set) => ({
    screen: 'prepare',
    openRunId: null,
    ...initial,
    show: (screen) => set({ screen }),
    openRun: (runId) => set({ screen: 'runs', openRunId: runId }),
    closeRun: () => set({ openRunId: null }),
  }))
}

export type NavStore = ReturnType<typeof createNavStore>
