/**
 * The run summaries the window knows, one per run and environment. The runs list and the open
 * run's detail both take a run's summary from here and put every summary they receive here (a
 * page, a pushed update, the detail's read, a run's end), so news that reaches either is what
 * both show, as the same object. A summary never goes backwards: an older one (smaller
 * updatedAtUnix) arriving late does not replace a newer one.
 */
import { createStore } from 'zustand/vanilla'
import type { RunSummary } from '../../shared/contract'

export interface RunSummariesData {
  /** Summaries by environment name, then by runId. */
  byEnvironment: Record<string, Record<string, RunSummary>>
}

export interface RunSummariesActions {
  put(environment: string, runs: readonly RunSummary[]): void
}

export type RunSummariesState = RunSummariesData & RunSummariesActions

/** Whether `run` should replace `known` (the same second counts as newer: it came later). */
export function isNewerSummary(run: RunSummary, known: RunSummary | undefined): boolean {
  return !known || (run !== known && run.updatedAtUnix >= known.updatedAtUnix)
}

export function summaryOf(
  state: RunSummariesData,
  environment: string | null,
  runId: string | null,
): RunSummary | undefined {
  if (!environment || !runId) return undefined
  return state.byEnvironment[environment]?.[runId]
}

/** `runs` as the cache has them: each replaced by the newest summary known of it. */
export function newestOf(
  state: RunSummariesData,
  environment: string,
  runs: readonly RunSummary[],
): RunSummary[] {
  const known = state.byEnvironment[environment]
  return known ? runs.map((run) => known[run.runId] ?? run) : [...runs]
}

export function createRunSummariesStore() {
  return createStore<RunSummariesState>()((set, get) => ({
    byEnvironment: {},
    put(environment, runs) {
      const before = get().byEnvironment[environment] ?? {}
      let after: Record<string, RunSummary> | null = null
      for (const run of runs) {
        if (!isNewerSummary(run, (after ?? before)[run.runId])) continue
        after ??= { ...before }
        after[run.runId] = run
      }
      if (after) set({ byEnvironment: { ...get().byEnvironment, [environment]: after } })
    },
  }))
}

export type RunSummariesStore = ReturnType<typeof createRunSummariesStore>
