/**
 * Views of the runs list and an open run: pages of runs, a run's detail, and the events that keep
 * them current (runsUpdated, runEnded, activity, runDetailUpdated).
 */
import type { RunDetail, RunSummary } from '../../contract'

export interface RunPage {
  environment: string
  items: RunSummary[]
  nextPageToken: string
  totalCount: number
}

export type RunDetailView = RunDetail

/** Pushed when the runs of an environment change (new runs, progress, statuses). */
export interface RunsUpdate {
  environment: string
  items: RunSummary[]
  totalCount: number
  /** Runs that are not finished yet (unknown statuses count as not finished). */
  activeCount: number
}

/** Pushed once when a run reaches a terminal status while the app watches it. */
export interface RunEnded {
  environment: string
  unitLabel: string
  run: RunSummary
}

/** Overall progress of every active run, for the taskbar / dock. */
export interface ActivityUpdate {
  activeRuns: number
  /** Finished tasks (succeeded, failed or cancelled) of the active runs. */
  doneTasks: number
  totalTasks: number
}

/** The service's detail of a followed run (followRun), pushed whenever it changed. */
export interface RunDetailUpdate {
  environment: string
  detail: RunDetail
}

/**
 * Whether the service of an environment answers the runs being followed: pushed when a look finds
 * it unreachable (down, 5xx, too slow) and again when it answers (`unreachableSinceMs` null).
 */
export interface RunsReachability {
  environment: string
  /** Since when (ms since the epoch) it cannot be reached; null once it answers again. */
  unreachableSinceMs: number | null
  /** How often it is asked again meanwhile (ms). */
  retryMs: number
}
