/**
 * The "New run" domain: one store built from a slice per step of the screen, in the order the
 * user goes through them:
 *   target-slice  what to run (a template or a listing), its form, the input workbook to fill
 *   check-slice   the workbook dropped and its check, run values, the marked-up copy
 *   files-slice   the local files its file cells name, and their uploads
 *   send-slice    pilot, plan and confirmation, and sends not answered yet
 *   draft-slice   all of the above kept by the engine as a draft, brought back after a reload
 * Each slice owns its fields and actions; a step reads the steps before it, and clears another
 * step's results only where its own change makes them stale (a new target, a new workbook).
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { BridgeApi, FileRef } from '../../../shared/bridge'
import { checkActions, initialCheck } from './check-slice'
import { draftActions, draftOf, initialDraft } from './draft-slice'
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
    ...initialDraft(),
  }
}

function randomId(): string {
  const c = globalThis.crypto
  if (c && 'randomUUID' in c) return c.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

export function createPrepareStore(deps: PrepareDeps) {
  const { api } = deps
  const restoredPaths = new WeakMap<File, FileRef>()
  const store = createStore<PrepareState>()((set, get) => {
    const ctx: SliceContext = {
      set,
      get,
      api,
      toFileRef: (file) => Promise.resolve(restoredPaths.get(file) ?? deps.toFileRef(file)),
      download: deps.download,
      newId: deps.newId ?? randomId,
      restoredPaths,
    }
    return {
      ...initial(),
      ...targetActions(ctx),
      ...checkActions(ctx),
      ...filesActions(ctx),
      ...sendActions(ctx),
      ...draftActions(ctx),
      async open(environment) {
        if (get().environment === environment) return
        const { checkId, checkState } = get()
        if (checkState === 'reading' && checkId) api.cancelCheck({ checkId }).catch(() => {})
        set({ ...initial(), environment })
        await Promise.all([get().loadTemplates(), get().loadPending(), get().restoreDraft()])
      },
      reset() {
        const { environment } = get()
        set({ ...initial(), environment, templates: get().templates, draftReady: true })
        // Nothing on screen any more: the draft goes too.
        if (environment) api.clearDraft({ environment }).catch(() => {})
      },
    }
  })
  keepDraft(store, api, deps.draftDelayMs ?? 400)
  return store
}

/** What a save of the draft would send, as one string, so an unchanged screen saves nothing. */
function draftKey(state: PrepareState): string {
  const draft = draftOf(state)
  // The workbook is named by its check; one that failed names none kept, so the engine keeps the
  // workbook it has.
  const checkId = state.file ? (state.check?.checkId ?? state.checkId) : ''
  return draft ? JSON.stringify([state.environment, checkId, draft]) : `${state.environment}:none`
}

/**
 * Keeps the screen's draft in the engine as the user goes, a moment after the last change. It
 * waits for the environment's draft to be looked for (so an empty screen never saves over it)
 * and for a check under way to end (so its workbook is the one kept).
 */
function keepDraft(store: StoreApi<PrepareState>, api: BridgeApi, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | null = null
  let saved = ''
  const save = (state: PrepareState) => {
    if (timer) clearTimeout(timer)
    timer = null
    const environment = state.environment
    const key = draftKey(state)
    if (!environment || key === saved) return
    saved = key
    const draft = draftOf(state)
    const checkId = state.file ? (state.check?.checkId ?? state.checkId) : ''
    const call = draft
      ? api.saveDraft({ environment, draft, ...(checkId ? { checkId } : {}) })
      : api.clearDraft({ environment })
    // A draft not saved only loses the way back after a reload; the screen goes on.
    call.catch(() => {})
  }
  store.subscribe((state, previous) => {
    if (previous.environment !== state.environment) {
      // Another environment: the last change of the previous one is kept before it goes.
      if (timer && previous.draftReady) save(previous)
      saved = ''
    }
    if (!state.draftReady || state.checkState === 'reading') return
    if (!previous.draftReady && (state.restored || !draftOf(state))) {
      // Just restored (or none found, nothing chosen): the engine has what is on screen.
      saved = draftKey(state)
      return
    }
    if (draftKey(state) === saved) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => save(store.getState()), delayMs)
  })
}

export type PrepareStore = ReturnType<typeof createPrepareStore>
