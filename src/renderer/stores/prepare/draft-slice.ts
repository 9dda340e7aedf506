/**
 * The New run screen's draft: what the user chose so far is kept by the engine as they go
 * (debounced), and brought back after a reload or a restart, the workbook read and checked again.
 * Restoring never sends: a draft that was sent comes back as a link to its run, nothing to send.
 */
import { base64ToBytes } from '../../bridge/files'
import type { DraftStep, PrepareDraft, PrepareDraftView } from '../../../shared/bridge'
import { checkFile } from './check-slice'
import type { DraftActions, DraftData } from './draft-types'
import type { PrepareState, SliceContext } from './prepare-state'
import { sendBlocker } from './send-blocker'
export type { DraftData, DraftActions, RestoredNote } from './draft-types'

export function initialDraft(): DraftData {
  return { draftReady: false, restored: null, mapping: null }
}

/** The step the screen is at, as far as the draft is concerned. */
function stepOf(state: PrepareState): DraftStep {
  if (state.sent?.runId) return 'sent'
  if (state.check && sendBlocker(state) === null) return 'send'
  if (state.check && state.check.fileCells.length > 0) return 'files'
  if (state.file) return 'workbook'
  return 'target'
}

/** What the draft keeps of the screen now, or null when there is nothing to keep. */
export function draftOf(state: PrepareState): PrepareDraft | null {
  if (!state.target && !state.file && !state.sent?.runId) return null
  return {
    step: stepOf(state),
    target: state.target,
    sheet: state.sheet,
    mapping: state.mapping,
    runValues: state.runValues,
    pilot: state.pilot,
    sent: state.sent?.runId
      ? { runId: state.sent.runId, clientRequestId: state.sent.clientRequestId }
      : null,
  }
}

/** Chooses the draft's target again (its form loads meanwhile). */
function chooseAgain(ctx: SliceContext, target: PrepareDraft['target']): Promise<void> {
  if (!target) return Promise.resolve()
  const state = ctx.get()
  return target.kind === 'template'
    ? state.chooseTemplate(target.templateId)
    : state.chooseListing(target.listingId, target.listingVersionId)
}

async function restore(ctx: SliceContext, found: PrepareDraftView) {
  const { set, get } = ctx
  const { draft, workbook } = found
  // Choosing the target again starts by clearing what belonged to the previous one: the choices
  // made for this one are put back after it.
  // Its form is not waited for: a slow service must not hold the draft (and its saving) back.
  void chooseAgain(ctx, draft.target)
  set({
    runValues: draft.runValues,
    sheet: draft.sheet,
    pilot: draft.pilot,
    mapping: draft.mapping,
  })
  if (workbook?.state === 'same') {
    const file = new File([base64ToBytes(workbook.base64)], workbook.name)
    // The desktop goes on reading the user's own file, where it is (its folder holds the files
    // its cells name); a page has only the content.
    if (workbook.path)
      ctx.restoredPaths.set(file, { kind: 'path', path: workbook.path, name: workbook.name })
    await checkFile(ctx, file, get().target, draft.mapping ?? undefined)
  }
  const problem = workbook && workbook.state !== 'same' ? workbook : null
  set({
    restored: {
      step: draft.step,
      savedAtMs: found.savedAtMs,
      workbookProblem: problem && { state: problem.state, name: problem.name },
      sentRunId: null,
    },
  })
}

export function draftActions(ctx: SliceContext): DraftActions {
  const { set, get, api } = ctx
  return {
    async restoreDraft() {
      const { environment } = get()
      if (!environment) return
      const found = await api.restoreDraft({ environment }).catch(() => null)
      if (get().environment !== environment) return
      try {
        // The user chose something while the draft was asked for: theirs wins.
        if (get().target || get().file) return
        const sent = found?.draft.sent
        if (found && sent) {
          // Sent already: the run is shown, and nothing is made ready to send again.
          set({
            sent: { environment, ...sent, status: 'sent', againOf: null },
            restored: {
              step: 'sent',
              savedAtMs: found.savedAtMs,
              workbookProblem: null,
              sentRunId: sent.runId,
            },
          })
        } else if (found) await restore(ctx, found)
      } finally {
        if (get().environment === environment) set({ draftReady: true })
      }
    },
    dismissRestored() {
      set({ restored: null })
    },
  }
}
