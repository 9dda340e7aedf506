/**
 * The types of the open run's store, shared by its slices: the whole state, and what a slice
 * gets to read and change it. Kept apart from run-detail-store.ts so no slice imports the file
 * that composes it.
 */
import type { StoreApi } from 'zustand/vanilla'
import type {
  BridgeApi,
  BridgeErrorInfo,
  RunDetailChange,
  RunDetailUpdate,
  RunEnded,
  RunOverview,
  RunsUpdate,
  ShowInFolderView,
} from '../../../shared/bridge'
import type { OutputsActions, PreviewState, ResultsState, ShowItem } from './outputs-types'
import type { RetryActions, RetryState } from './retry-types'

export interface RunDetailData {
  environment: string | null
  runId: string | null
  /**
   * The overview as last read or pushed (tasks, outputs, what this device knows). Its run
   * summary may be older than the shared cache's: show a run through `shownOverview`.
   */
  overview: RunOverview | null
  loading: boolean
  error: BridgeErrorInfo | null
  /**
   * For a run shown a window at a time (overview.rows): counts the engine's pushes of it, so its
   * rows in view are asked again at each.
   */
  rowsVersion: number
  /** The artifact whose preview is shown. */
  previewing: string | null
  previews: Record<string, PreviewState>
  results: ResultsState
  /** The last "Show in folder": shown by the desktop, or the path to copy in a browser. */
  shown: (ShowInFolderView & { item: ShowItem; artifactId: string }) | null
  showError: (BridgeErrorInfo & { item: ShowItem }) | null
  retry: RetryState
}

/** Opening, closing and following the run. */
export interface LiveActions {
  open(environment: string, runId: string): Promise<void>
  refresh(): Promise<void>
  /**
   * The page's connection to the engine came back: what it pushed meanwhile was missed, and a
   * restarted engine follows nothing. Reads the run again and follows it anew.
   */
  reconnected(): Promise<void>
  close(): void
  applyRunsUpdate(update: RunsUpdate): void
  /** The engine's news about the followed run (runDetailUpdated). */
  applyDetailUpdate(update: RunDetailUpdate): void
  /** The engine's news about a big followed run, as what changed (runDetailChanged). */
  applyDetailChange(change: RunDetailChange): void
  applyRunEnded(event: RunEnded): void
}

export type RunDetailActions = LiveActions & OutputsActions & RetryActions

export type RunDetailState = RunDetailData & RunDetailActions

export const EMPTY_RUN_DETAIL: RunDetailData = {
  environment: null,
  runId: null,
  overview: null,
  loading: false,
  error: null,
  rowsVersion: 0,
  previewing: null,
  previews: {},
  results: { state: 'idle' },
  shown: null,
  showError: null,
  retry: { state: 'idle' },
}

export interface RunDetailContext {
  set: StoreApi<RunDetailState>['setState']
  get: StoreApi<RunDetailState>['getState']
  api: BridgeApi
  /** Counts the runs opened: an answer for a run opened before the latest one is dropped. */
  generation(): number
  /** Reads the whole overview again (for the run open at `generation`). */
  read(generation: number): Promise<void>
}
