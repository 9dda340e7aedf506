/**
 * Step 4 of the New run screen: sending. All rows or a pilot of the first N; a plan that works
 * out the cost and opens the confirmation; the explicit yes that sends it; and the submissions
 * journaled but not answered yet (they survive a restart).
 */
import type { WorkbookCheckView } from '../../../shared/bridge'
import { errorInfo } from '../errors'
import { defined } from '../../../shared/defined'
import { filledRunValues } from './check-slice'
import { uploadedFileCells } from './files-slice'
import type { SliceContext } from './prepare-state'
import type { SendData, SendActions } from './send-types'
export type { SendData, SendActions } from './send-types'

export function initialSend(): SendData {
  return {
    pilot: { on: false, rows: 5 },
    callbackUrl: '',
    planning: false,
    planWorkId: '',
    planStopped: false,
    plan: null,
    planError: null,
    sending: false,
    sendError: null,
    sent: null,
    pending: [],
  }
}

/** The checked target as a plan asks for it (without the name the check added). */
function planTarget(target: NonNullable<WorkbookCheckView['target']>) {
  return target.kind === 'template'
    ? { kind: 'template' as const, templateId: target.templateId }
    : {
        kind: 'listing' as const,
        listingId: target.listingId,
        listingVersionId: target.listingVersionId,
      }
}

/** The rows set aside when a run was sent: downloaded (browser), or saved and opened (desktop). */
async function openRowsToFix(ctx: SliceContext, environment: string, runId: string) {
  try {
    const saved = await ctx.api.saveSetAsideRows({ environment, runId })
    if (saved?.kind === 'bytes') ctx.download(saved)
    else if (saved?.canOpen) await ctx.api.openSavedFile({ path: saved.path })
    return null
  } catch (error) {
    return errorInfo(error)
  }
}

/** Works out the cost of sending the checked workbook: opens the confirmation, or says why not. */
async function planSend(ctx: SliceContext, options: { skipInvalid?: boolean }) {
  const { set, get, api } = ctx
  const { environment, file, check, pilot } = get()
  const target = check?.target
  if (!environment || !file || !target) return
  const workId = ctx.newId()
  set({ planning: true, planWorkId: workId, planStopped: false })
  set({ planError: null, plan: null, sendError: null, sent: null })
  // A plan for a check no longer shown (another target or environment), or one the user
  // stopped, is dropped.
  const current = () => get().check === check && get().planWorkId === workId
  try {
    const ref = await ctx.toFileRef(file)
    if (!current()) return
    const runValues = filledRunValues(get())
    const plan = await api.planSubmission({
      environment,
      file: ref,
      target: planTarget(target),
      workId,
      ...defined({
        // Sent even when empty: asking without one forgets the one remembered for the template.
        callbackUrl: target.kind === 'template' ? get().callbackUrl.trim() : undefined,
        // With rows set aside, a pilot takes the first of the valid rows.
        pilotRows: pilot.on ? pilot.rows : undefined,
        skipInvalid: options.skipInvalid || undefined,
        runValues: Object.keys(runValues).length ? runValues : undefined,
        fileAssets: ref.kind === 'bytes' ? uploadedFileCells(get()) : undefined,
        // The plan reads the sheet the check read (the reader's choice, or the user's).
        sheet: check.sheet || undefined,
      }),
    })
    if (current()) set({ planning: false, planWorkId: '', plan })
  } catch (error) {
    if (current()) set({ planning: false, planWorkId: '', planError: errorInfo(error) })
  }
}

export function sendActions(ctx: SliceContext): SendActions {
  const { set, get, api } = ctx

  return {
    setPilot(pilot) {
      set({ pilot: { on: pilot.on, rows: Math.max(1, Math.floor(pilot.rows) || 1) } })
    },
    setCallbackUrl(text) {
      set({ callbackUrl: text })
    },
    planSend: (options = {}) => planSend(ctx, options),
    cancelPlan() {
      const { planning, planWorkId } = get()
      if (!planning) return
      set({ planning: false, planWorkId: '', planStopped: true })
      if (planWorkId) void api.cancelWork({ workId: planWorkId }).catch(() => {})
    },
    closePlan() {
      if (get().sending) return
      set({ plan: null, sendError: null })
    },
    async planOnlyNew(rows) {
      const { environment, plan } = get()
      if (!environment || !plan?.batchId || get().sending) return
      set({ planning: true, planError: null, plan: null, sendError: null })
      try {
        const next = await api.planBatchRows({ environment, batchId: plan.batchId, rows })
        set({ planning: false, plan: next })
      } catch (error) {
        set({ planning: false, planError: errorInfo(error) })
      }
    },
    async confirmSend(options) {
      const { environment, plan } = get()
      if (!environment || !plan?.planId || get().sending) return null
      set({ sending: true, sendError: null })
      try {
        const sent = await api.confirmSubmission({
          environment,
          planId: plan.planId,
          confirmed: true,
          ...options,
        })
        set({ sending: false, sent, plan: null })
        void get().loadPending()
        return sent
      } catch (error) {
        set({ sending: false, sendError: errorInfo(error) })
        void get().loadPending()
        return null
      }
    },
    async loadPending() {
      const { environment } = get()
      if (!environment) return
      try {
        const list = await api.listPendingSubmissions({ environment })
        if (get().environment === environment) set({ pending: list.items })
        // Listed ones are sent again in the background with their own ids; updates follow.
        if (list.items.length > 0) await api.resendPendingSubmissions({ environment })
      } catch {
        // The list is a courtesy: the journal resends by itself; try again next time.
      }
    },
    openRowsToFix: (environment, runId) => openRowsToFix(ctx, environment, runId),
    applySubmissionUpdate(update) {
      if (update.environment !== get().environment) return
      if (update.state === 'accepted' || update.state === 'refused') {
        set({
          pending: get().pending.filter((p) => p.clientRequestId !== update.clientRequestId),
        })
      } else void get().loadPending()
    },
  }
}
