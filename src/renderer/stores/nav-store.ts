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
  /** The run whose batch (its sheet across its runs) is open on the Runs screen, if any. */
  openBatchOf: string | null
}

export interface NavActions {
  show(screen: Screen): void
  openRun(runId: string): void
  closeRun(): void
  openBatch(runId: string): void
  /** Back from the batch to the run it was opened from (or the list). */
  closeBatch(): void
}

export function createNavStore(initial: Partial<NavData> = {}) {
  return createStore<NavData & NavActions>()((set) => ({
    screen: 'prepare',
    openRunId: null,
    openBatchOf: null,
    ...initial,
    show: (screen) => set({ screen }),
    openRun: (runId) => set({ screen: 'runs', openRunId: runId, openBatchOf: null }),
    closeRun: () => set({ openRunId: null, openBatchOf: null }),
    openBatch: (runId) => set({ screen: 'runs', openBatchOf: runId }),
    closeBatch: () => set({ openBatchOf: null }),
  }))
}

export type NavStore = ReturnType<typeof createNavStore>
