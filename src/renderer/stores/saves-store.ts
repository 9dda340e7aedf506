/**
 * Saving a run's outputs to disk: one entry per run, from the click to the result. Progress
 * arrives as pushed downloadProgress events; the result (or the error) ends the entry.
 */
import { createStore } from 'zustand/vanilla'
import type {
  BridgeApi,
  BridgeErrorInfo,
  DownloadProgressUpdate,
  DownloadResultView,
  SavedOutputsView,
} from '../../shared/bridge'
import { errorInfo } from './errors'

export type SaveState =
  | { state: 'saving'; doneFiles: number; totalFiles: number }
  | {
      state: 'saved'
      folder: string
      savedFiles: number
      failedFiles: number
      /** Saved on their own when the run ended (the "keep outputs" setting). */
      auto?: boolean
    }
  | { state: 'cancelled' }
  | { state: 'failed'; error: BridgeErrorInfo }

export interface SavesState {
  byRun: Record<string, SaveState>
  /** The save that ended last, so the screen can say where the files went. */
  lastSaved: { runId: string; folder: string; savedFiles: number; failedFiles: number } | null
  dismissLastSaved(): void
  save(environment: string, runId: string): Promise<void>
  applyProgress(update: DownloadProgressUpdate): void
  /** The engine saved a run's outputs on its own when the run ended. */
  applyAutoSaved(result: DownloadResultView): void
  /**
   * Runs whose outputs the history says are saved on this computer (a list's page after a
   * reload): known as saved unless this window already tells a save of its own.
   */
  knowSaved(saved: readonly SavedOutputsView[]): void
}

export function createSavesStore(api: BridgeApi) {
  return createStore<SavesState>()((set, get) => {
    const put = (runId: string, state: SaveState) =>
      set((s) => ({ byRun: { ...s.byRun, [runId]: state } }))
    return {
      byRun: {},
      lastSaved: null,
      dismissLastSaved: () => set({ lastSaved: null }),
      async save(environment, runId) {
        if (get().byRun[runId]?.state === 'saving') return
        put(runId, { state: 'saving', doneFiles: 0, totalFiles: 0 })
        try {
          const result = await api.downloadRun({ environment, runId })
          if (result)
            set({
              lastSaved: {
                runId,
                folder: result.folder,
                savedFiles: result.savedFiles,
                failedFiles: result.failed.length,
              },
            })
          put(
            runId,
            result
              ? {
                  state: 'saved',
                  folder: result.folder,
                  savedFiles: result.savedFiles,
                  failedFiles: result.failed.length,
                }
              : { state: 'cancelled' },
          )
        } catch (error) {
          put(runId, { state: 'failed', error: errorInfo(error) })
        }
      },
      applyAutoSaved(result) {
        // A save the user started is told by its own answer.
        if (get().byRun[result.runId]?.state === 'saving') return
        put(result.runId, {
          state: 'saved',
          folder: result.folder,
          savedFiles: result.savedFiles,
          failedFiles: result.failed.length,
          auto: true,
        })
      },
      knowSaved(saved) {
        const byRun = get().byRun
        const news = saved.filter((run) => run.files > 0 && !byRun[run.runId])
        if (news.length === 0) return
        const known = news.map((run) => [
          run.runId,
          { state: 'saved', folder: run.folder, savedFiles: run.files, failedFiles: 0 } as const,
        ])
        set((s) => ({ byRun: { ...s.byRun, ...Object.fromEntries(known) } }))
      },
      applyProgress(update) {
        if (get().byRun[update.runId]?.state !== 'saving') return
        put(update.runId, {
          state: 'saving',
          doneFiles: update.doneFiles,
          totalFiles: update.totalFiles,
        })
      },
    }
  })
}

export type SavesStore = ReturnType<typeof createSavesStore>

/** The words for a save, as the outputs cell shows them. */
export function saveText(save: SaveState | undefined): string {
  if (!save || save.state === 'cancelled') return ''
  if (save.state === 'saving')
    return save.totalFiles ? `Saving ${save.doneFiles} of ${save.totalFiles}…` : 'Saving…'
  if (save.state === 'failed') return `Not saved: ${save.error.message}`
  const files = `${save.savedFiles} file${save.savedFiles === 1 ? '' : 's'}`
  if (save.auto)
    return save.failedFiles
      ? `Saved ${files} when the run ended; ${save.failedFiles} failed (save again to retry)`
      : `Saved ${files} when the run ended`
  return save.failedFiles
    ? `Saved ${files}; ${save.failedFiles} failed (save again to retry)`
    : `Saved ${files}`
}
