/**
 * The open run: its overview (the service's detail and what this device knows), previews of its
 * outputs, the results workbook and "Show in folder". Live while open: an active run is followed
 * by the engine (followRun), wherever it sits in the runs list, and its changes arrive as
 * runDetailUpdated events; when it ends, the whole overview is read once more.
 */
import { createStore } from 'zustand/vanilla'
import type {
  ArtifactPreviewView,
  BridgeApi,
  BridgeErrorInfo,
  DownloadProgressUpdate,
  ResultsWorkbookView,
  RunDetailUpdate,
  RunEnded,
  RunOverview,
  RunsUpdate,
  ShowInFolderView,
  SubmissionPlanView,
} from '../../shared/bridge'
import { isTerminalStatus } from '../../shared/contract'
import { errorInfo } from './errors'

export type PreviewState =
  | { state: 'loading' }
  | { state: 'done'; value: ArtifactPreviewView }
  | { state: 'failed'; error: BridgeErrorInfo }

export type ResultsState =
  | { state: 'idle' }
  | { state: 'saving'; doneFiles: number; totalFiles: number }
  | { state: 'saved'; value: ResultsWorkbookView }
  | { state: 'failed'; error: BridgeErrorInfo }

/** "Retry failed rows": a plan of the failed rows, confirmed by the user, then sent. */
export type RetryState =
  | { state: 'idle' }
  | { state: 'planning' }
  | {
      state: 'confirming'
      plan: SubmissionPlanView
      sending: boolean
      error: BridgeErrorInfo | null
    }
  | { state: 'sent'; runId: string }
  | { state: 'failed'; error: BridgeErrorInfo }

export interface RetryChoice {
  maxCostT?: number
  again?: boolean
}

export type ShowItem = 'outputs' | 'results' | 'artifact'

export interface RunDetailData {
  environment: string | null
  runId: string | null
  overview: RunOverview | null
  loading: boolean
  error: BridgeErrorInfo | null
  /** The artifact whose preview is shown. */
  previewing: string | null
  previews: Record<string, PreviewState>
  results: ResultsState
  /** The last "Show in folder": shown by the desktop, or the path to copy in a browser. */
  shown: (ShowInFolderView & { item: ShowItem; artifactId: string }) | null
  showError: (BridgeErrorInfo & { item: ShowItem }) | null
  retry: RetryState
}

export interface RunDetailActions {
  open(environment: string, runId: string): Promise<void>
  refresh(): Promise<void>
  /**
   * The page's connection to the engine came back: what it pushed meanwhile was missed, and a
   * restarted engine follows nothing. Reads the run again and follows it anew.
   */
  reconnected(): Promise<void>
  close(): void
  preview(artifactId: string): Promise<void>
  closePreview(): void
  saveResults(): Promise<void>
  showInFolder(item: ShowItem, artifactId?: string): Promise<void>
  /** Plans a new run of the failed rows; nothing is sent until confirmRetry. */
  planRetry(): Promise<void>
  confirmRetry(choice: RetryChoice): Promise<void>
  cancelRetry(): void
  applyRunsUpdate(update: RunsUpdate): void
  applyProgress(update: DownloadProgressUpdate): void
  /** The engine's news about the followed run (runDetailUpdated). */
  applyDetailUpdate(update: RunDetailUpdate): void
  applyRunEnded(event: RunEnded): void
}

export type RunDetailState = RunDetailData & RunDetailActions

const EMPTY: RunDetailData = {
  environment: null,
  runId: null,
  overview: null,
  loading: false,
  error: null,
  previewing: null,
  previews: {},
  results: { state: 'idle' },
  shown: null,
  showError: null,
  retry: { state: 'idle' },
}

export function createRunDetailStore(
  api: BridgeApi,
  timers: { now: () => number; later: (fn: () => void, ms: number) => void } = {
    now: () => Date.now(),
    later: (fn, ms) => void setTimeout(fn, ms),
  },
) {
  return createStore<RunDetailState>()((set, get) => {
    let generation = 0
    let lastRead = 0
    let refreshQueued = false
    /** The run the engine follows for this detail, if any. */
    let following: { environment: string; runId: string } | null = null

    function unfollow() {
      if (!following) return
      void api.unfollowRun(following).catch(() => {})
      following = null
    }

    function follow(environment: string, runId: string) {
      if (following?.environment === environment && following.runId === runId) return
      unfollow()
      following = { environment, runId }
      void api.followRun({ environment, runId }).catch(() => {
        // The engine could not follow it: the runs list's updates still refresh the detail.
        following = null
      })
    }

    /** Reads the whole overview again soon (at most once a second). */
    function readSoon() {
      if (refreshQueued) return
      const wait = Math.max(0, 1000 - (timers.now() - lastRead))
      refreshQueued = true
      const mine = generation
      timers.later(() => {
        refreshQueued = false
        if (mine === generation) void read(mine)
      }, wait)
    }

    async function read(mine: number) {
      const { environment, runId } = get()
      if (!environment || !runId) return
      lastRead = timers.now()
      try {
        const overview = await api.getRunOverview({ environment, runId })
        if (mine !== generation) return
        set({ overview, loading: false, error: null })
        if (!isTerminalStatus(overview.detail.run.status)) follow(environment, runId)
      } catch (error) {
        if (mine !== generation) return
        set({ loading: false, error: errorInfo(error) })
      }
    }

    return {
      ...EMPTY,
      async open(environment, runId) {
        const mine = ++generation
        if (following && (following.environment !== environment || following.runId !== runId))
          unfollow()
        set({ ...EMPTY, environment, runId, loading: true })
        await read(mine)
      },
      async refresh() {
        set({ error: null })
        await read(generation)
      },
      async reconnected() {
        const { environment, runId } = get()
        if (!environment || !runId) return
        const was = following
        following = null
        // The same engine still counts this viewer: take it off before following again, in order.
        if (was) await api.unfollowRun(was).catch(() => {})
        await read(generation)
      },
      close() {
        generation++
        unfollow()
        set({ ...EMPTY })
      },
      async preview(artifactId) {
        const { environment, runId, previews } = get()
        if (!environment || !runId) return
        set({ previewing: artifactId })
        if (previews[artifactId]?.state === 'done' || previews[artifactId]?.state === 'loading')
          return
        const mine = generation
        set((s) => ({ previews: { ...s.previews, [artifactId]: { state: 'loading' } } }))
        let next: PreviewState
        try {
          next = {
            state: 'done',
            value: await api.previewArtifact({ environment, runId, artifactId }),
          }
        } catch (error) {
          next = { state: 'failed', error: errorInfo(error) }
        }
        if (mine !== generation) return
        set((s) => ({ previews: { ...s.previews, [artifactId]: next } }))
      },
      closePreview: () => set({ previewing: null }),
      async saveResults() {
        const { environment, runId, results } = get()
        if (!environment || !runId || results.state === 'saving') return
        const mine = generation
        set({ results: { state: 'saving', doneFiles: 0, totalFiles: 0 }, shown: null })
        try {
          const value = await api.saveResultsWorkbook({ environment, runId })
          if (mine !== generation) return
          set({ results: { state: 'saved', value } })
          void read(mine)
        } catch (error) {
          if (mine !== generation) return
          set({ results: { state: 'failed', error: errorInfo(error) } })
        }
      },
      async showInFolder(item, artifactId) {
        const { environment, runId } = get()
        if (!environment || !runId) return
        set({ showError: null, shown: null })
        try {
          const shown = await api.showInFolder({
            environment,
            runId,
            item,
            ...(artifactId ? { artifactId } : {}),
          })
          set({ shown: { ...shown, item, artifactId: artifactId ?? '' } })
        } catch (error) {
          set({ shown: null, showError: { ...errorInfo(error), item } })
        }
      },
      async planRetry() {
        const { environment, runId, retry } = get()
        if (!environment || !runId || retry.state === 'planning' || retry.state === 'confirming')
          return
        const mine = generation
        set({ retry: { state: 'planning' } })
        try {
          const plan = await api.planRetryFailed({ environment, runId })
          if (mine !== generation) return
          set({ retry: { state: 'confirming', plan, sending: false, error: null } })
        } catch (error) {
          if (mine !== generation) return
          set({ retry: { state: 'failed', error: errorInfo(error) } })
        }
      },
      async confirmRetry(choice) {
        const { environment, retry } = get()
        if (!environment || retry.state !== 'confirming' || retry.sending) return
        const mine = generation
        set({ retry: { ...retry, sending: true, error: null } })
        try {
          const sent = await api.confirmSubmission({
            environment,
            planId: retry.plan.planId,
            confirmed: true,
            ...(choice.maxCostT !== undefined ? { maxCostT: choice.maxCostT } : {}),
            ...(choice.again ? { again: true } : {}),
          })
          if (mine !== generation) return
          set({ retry: { state: 'sent', runId: sent.runId } })
          void read(mine)
        } catch (error) {
          if (mine !== generation) return
          set({ retry: { ...retry, sending: false, error: errorInfo(error) } })
        }
      },
      cancelRetry() {
        const { retry } = get()
        if (retry.state === 'confirming' && retry.sending) return
        set({ retry: { state: 'idle' } })
      },
      applyRunsUpdate(update) {
        const { environment, runId, overview } = get()
        if (update.environment !== environment || !runId || !overview) return
        // A followed run's changes arrive as runDetailUpdated, with its detail.
        if (following) return
        const run = update.items.find((r) => r.runId === runId)
        if (!run || run.updatedAtUnix <= overview.detail.run.updatedAtUnix) return
        readSoon()
      },
      applyDetailUpdate(update) {
        const { environment, runId, overview } = get()
        const run = update.detail.run
        if (update.environment !== environment || run.runId !== runId || !overview) return
        if (run.updatedAtUnix < overview.detail.run.updatedAtUnix) return
        set({ overview: { ...overview, detail: update.detail } })
      },
      applyRunEnded(event) {
        const { environment, runId, overview } = get()
        if (event.environment !== environment || event.run.runId !== runId || !overview) return
        if (event.run.updatedAtUnix >= overview.detail.run.updatedAtUnix)
          set({ overview: { ...overview, detail: { ...overview.detail, run: event.run } } })
        // The engine stops following it by itself; the final outputs and payment come next.
        if (following?.environment === environment && following.runId === runId) unfollow()
        readSoon()
      },
      applyProgress(update) {
        const { results, runId, environment } = get()
        if (results.state !== 'saving' || update.runId !== runId) return
        if (update.environment !== environment) return
        set({
          results: { state: 'saving', doneFiles: update.doneFiles, totalFiles: update.totalFiles },
        })
      },
    }
  })
}

export type RunDetailStore = ReturnType<typeof createRunDetailStore>
