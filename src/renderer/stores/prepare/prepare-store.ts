/**
 * The "New run" domain: one store built from a slice per step of the screen, in the order the
 * user goes through them:
 *   target-slice  what to run (a template or a listing), its form, the input workbook to fill
 *   check-slice   the workbook dropped and its check, run values, the marked-up copy
 *   files-slice   the local files its file cells name, and their uploads
 *   send-slice    pilot, plan and confirmation, and sends not answered yet
 * Each slice owns its fields and actions; a step reads the steps before it, and clears another
 * step's results only where its own change makes them stale (a new target, a new workbook).
 */
import { createStore } from 'zustand/vanilla'
import { checkActions, initialCheck } from './check-slice'
import { filesActions, initialFiles } from './files-slice'
import type { PrepareData, PrepareDeps, PrepareState, SliceContext } from './prepare-state'
import { initialSend, sendActions } from './send-slice'
import { initialTarget, targetActions } from './target-slice'

export type { PrepareDeps, PrepareState } from './prepare-state'

function initial(): PrepareData {
  return {
    environment: null,
    ...initialTarget(),
    ...initialCheck(),
    ...initialFiles(),
    ...initialSend(),
  }
}

function randomId(): string {
  const c = globalThis.crypto
  if (c && 'randomUUID' in c) return c.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

export function createPrepareStore(deps: PrepareDeps) {
  const { api } = deps
  return createStore<PrepareState>()((set, get) => {
    const ctx: SliceContext = {
      set,
      get,
      api,
      toFileRef: deps.toFileRef,
      download: deps.download,
      newId: deps.newId ?? randomId,
    }
    return {
      ...initial(),
      ...targetActions(ctx),
      ...checkActions(ctx),
      ...filesActions(ctx),
      ...sendActions(ctx),
      async open(environment) {
        if (get().environment === environment) return
        const { checkId, checkState } = get()
        if (checkState === 'reading' && checkId) api.cancelCheck({ checkId }).catch(() => {})
        set({ ...initial(), environment })
        await Promise.all([get().loadTemplates(), get().loadPending()])
      },
      reset() {
        set({ ...initial(), environment: get().environment, templates: get().templates })
      },
    }
  })
}

export type PrepareStore = ReturnType<typeof createPrepareStore>
