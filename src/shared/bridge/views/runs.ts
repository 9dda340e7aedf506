/**
 * Views of the runs list and an open run: pages of runs, a run's detail, and the events that keep
 * them current (runsUpdated, runEnded, activity, runDetailUpdated, runDetailChanged).
 */
import type { Artifact, MarketContext, RunDetail, RunSummary, RunTask } from '../../contract'

export interface RunPage {
  environment: string
  items: RunSummary[]
  nextPageToken: string
  totalCount: number
  /** The page's runs whose outputs are saved on this computer (as History and a run's page say). */
  saved?: SavedOutputsView[] | undefined
}

/** Where a run's outputs were saved on this computer, and how many files. */
export interface SavedOutputsView {
  runId: string
  folder: string
  files: number
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

/**
 * A big followed run's detail as what changed (runDetailChanged): a detail of thousands of tasks
 * is megabytes, too much to send and parse at every change, so the engine sends it whole once
 * (`after` null) and then only the tasks that changed and the outputs that appeared since its
 * previous push for this run. A window applies a change only onto the push numbered `after`;
 * otherwise it missed one and asks for the whole detail again (resendRunDetail).
 */
export interface RunDetailChange {
  environment: string
  runId: string
  /** This push's number for this run (counting from 1 each time a window starts following). */
  seq: number
  /** The push this one follows; null: this one is the whole detail. */
  after: number | null
  run: RunSummary
  market?: MarketContext | undefined
  /** Tasks new or changed since `after`, whole (keyed by taskId); every task when whole. */
  tasks: RunTask[]
  /**
   * Outputs new since `after` (keyed by artifactId); every output when whole. An output never
   * changes once made, except that its access address may be signed anew, which the window
   * never uses (previews and saves go through the engine).
   */
  artifacts: Artifact[]
  /** How many tasks and outputs the detail holds now, so a window can check it has them all. */
  taskCount: number
  artifactCount: number
  /**
   * Present for a run shown a window at a time (see RunRowsCounts): `tasks` and `artifacts` are
   * then empty, and the window asks again for the rows it shows.
   */
  rows?: RunRowsCounts
}

/**
 * A run too big to hold whole in a window: its rows and outputs are kept by the engine and read
 * a window at a time (getRunRows, getRunOutputs). Its counts as last read.
 */
export interface RunRowsCounts {
  tasks: number
  failed: number
  outputs: number
}

/** Which rows getRunRows lists: every row (failed first, then in row order) or the failed ones. */
export type RunRowsFilter = 'all' | 'failed'

/** A window of a run's rows (getRunRows). */
export interface RunRowsView {
  runId: string
  /** Rows under the filter. */
  total: number
  /** The window's rows, from the position asked for. */
  rows: RunTask[]
}

/** A window of a run's outputs in the service's order (getRunOutputs), without their content. */
export interface RunOutputsView {
  runId: string
  total: number
  outputs: Artifact[]
}
