/**
 * "Retry failed rows" of the open run: a plan of the failed rows, confirmed by the user, then
 * sent as a new run. Nothing is sent until confirmRetry.
 */
import { errorInfo } from '../errors'
import type { RunDetailContext } from './run-detail-state'
import type { RetryActions, RetryEdits } from './retry-types'
import type { FixableRowView } from '../../../shared/bridge'
export type { RetryActions } from './retry-types'

export function retryActions(ctx: RunDetailContext): RetryActions {
  const { set, get, api } = ctx
  return {
    ...fixActions(ctx),
    async planRetry() {
      const { environment, runId, retry } = get()
      if (!environment || !runId || ['planning', 'fixing', 'confirming'].includes(retry.state))
        return
      const mine = ctx.generation()
      set({ retry: { state: 'planning' } })
      try {
        const plan = await api.planRetryFailed({ environment, runId })
        if (mine !== ctx.generation()) return
        const fixable = plan.fixableRows?.some((r) => r.cells.some((c) => c.editable))
        set({
          retry: fixable
            ? { state: 'fixing', plan, edits: {}, checked: true, checking: false, error: null }
            : { state: 'confirming', plan, sending: false, error: null },
        })
      } catch (error) {
        if (mine !== ctx.generation()) return
        set({ retry: { state: 'failed', error: errorInfo(error) } })
      }
    },
    async confirmRetry(choice) {
      const { environment, retry } = get()
      if (!environment || retry.state !== 'confirming' || retry.sending) return
      const mine = ctx.generation()
      set({ retry: { ...retry, sending: true, error: null } })
      try {
        const sent = await api.confirmSubmission({
          environment,
          planId: retry.plan.planId,
          confirmed: true,
          ...choice,
        })
        if (mine !== ctx.generation()) return
        set({ retry: { state: 'sent', runId: sent.runId } })
        void ctx.read(mine)
      } catch (error) {
        if (mine !== ctx.generation()) return
        set({ retry: { ...retry, sending: false, error: errorInfo(error) } })
      }
    },
    cancelRetry() {
      const { retry } = get()
      if (retry.state === 'confirming' && retry.sending) return
      set({ retry: { state: 'idle' } })
    },
  }
}

/** Fixing the failed rows before the confirmation: the user's cells, checked by the engine. */
function fixActions(
  ctx: RunDetailContext,
): Pick<RetryActions, 'editCell' | 'checkFixes' | 'reviewRetry' | 'fixFromWorkbook'> {
  const { set, get, api } = ctx
  return {
    editCell(row, key, text) {
      const { retry } = get()
      if (retry.state !== 'fixing') return
      const edits = { ...retry.edits, [row]: { ...retry.edits[row], [key]: text } }
      set({ retry: { ...retry, edits, checked: false } })
    },
    async checkFixes() {
      const { environment, runId, retry } = get()
      if (!environment || !runId || retry.state !== 'fixing' || retry.checking) return
      // Leaving a cell that did not change (the plan is of the cells as they are) asks nothing:
      // a check then would hold "Review" disabled under the pointer that is pressing it.
      if (retry.checked) return
      const mine = ctx.generation()
      const asked = retry.edits
      set({ retry: { ...retry, checking: true, error: null } })
      const edits = Object.entries(asked).map(([row, cells]) => ({ row: Number(row), cells }))
      try {
        const plan = await api.planRetryFailed({ environment, runId, edits })
        const now = get().retry
        if (mine !== ctx.generation() || now.state !== 'fixing') return
        // Cells typed while this check ran are checked again before the retry can go on.
        set({ retry: { ...now, plan, checking: false, checked: now.edits === asked } })
      } catch (error) {
        const now = get().retry
        if (mine !== ctx.generation() || now.state !== 'fixing') return
        set({ retry: { ...now, checking: false, checked: false, error: errorInfo(error) } })
      }
    },
    async fixFromWorkbook(file) {
      const { environment, runId, retry } = get()
      if (!environment || !runId || retry.state !== 'fixing' || retry.checking) return
      const mine = ctx.generation()
      set({ retry: { ...retry, checking: true, error: null } })
      try {
        const plan = await api.planRetryFailed({ environment, runId, file })
        const now = get().retry
        if (mine !== ctx.generation() || now.state !== 'fixing') return
        // The workbook's changes are shown in the grid as if typed, already checked.
        const edits = Object.fromEntries(
          (plan.fixesFromWorkbook ?? []).map((f) => [f.row, f.cells]),
        )
        set({
          retry: { ...now, plan, edits, checking: false, checked: true, fromWorkbook: file.name },
        })
      } catch (error) {
        const now = get().retry
        if (mine !== ctx.generation() || now.state !== 'fixing') return
        set({ retry: { ...now, checking: false, error: errorInfo(error) } })
      }
    },
    reviewRetry() {
      const { retry } = get()
      if (retry.state !== 'fixing' || !retry.checked || !retry.plan.validation.valid) return
      const editedRows = changedRows(retry.plan.fixableRows ?? [], retry.edits)
      set({
        retry: { state: 'confirming', plan: retry.plan, editedRows, sending: false, error: null },
      })
    },
  }
}

/** How many of the failed rows the buyer changed: a cell typed back to what was sent is no change. */
export function changedRows(rows: readonly FixableRowView[], edits: RetryEdits): number {
  return rows.filter((row) =>
    row.cells.some((cell) => {
      const text = edits[row.row]?.[cell.key]
      return text !== undefined && text !== cell.text
    }),
  ).length
}
