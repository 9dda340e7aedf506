/**
 * The open run's outputs: previews of its artifacts, the results workbook (with its progress)
 * and "Show in folder".
 */
import { errorInfo } from '../errors'
import type { RunDetailContext } from './run-detail-state'
import type { PreviewState, OutputsActions } from './outputs-types'
export type { PreviewState, OutputsActions } from './outputs-types'

export function outputsActions(ctx: RunDetailContext): OutputsActions {
  const { set, get, api } = ctx
  return {
    async preview(artifactId) {
      const { environment, runId, previews } = get()
      if (!environment || !runId) return
      set({ previewing: artifactId })
      if (previews[artifactId]?.state === 'done' || previews[artifactId]?.state === 'loading')
        return
      const mine = ctx.generation()
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
      if (mine !== ctx.generation()) return
      set((s) => ({ previews: { ...s.previews, [artifactId]: next } }))
    },
    closePreview: () => set({ previewing: null }),
    async saveResults() {
      const { environment, runId, results } = get()
      if (!environment || !runId || results.state === 'saving') return
      const mine = ctx.generation()
      set({ results: { state: 'saving', doneFiles: 0, totalFiles: 0 }, shown: null })
      try {
        const value = await api.saveResultsWorkbook({ environment, runId })
        if (mine !== ctx.generation()) return
        set({ results: { state: 'saved', value } })
        void ctx.read(mine)
      } catch (error) {
        if (mine !== ctx.generation()) return
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
    applyProgress(update) {
      const { results, runId, environment } = get()
      if (results.state !== 'saving' || update.runId !== runId) return
      if (update.environment !== environment) return
      set({
        results: { state: 'saving', doneFiles: update.doneFiles, totalFiles: update.totalFiles },
      })
    },
  }
}
