/**
 * "Retry failed rows" of the open run: a plan of the failed rows, confirmed by the user, then
 * sent as a new run. Nothing is sent until confirmRetry.
 */
import { errorInfo } from '../errors'
import type { RunDetailContext } from './run-detail-state'
import type { RetryActions } from './retry-types'
export type { RetryActions } from './retry-types'

export function retryActions(ctx: RunDetailContext): RetryActions {
  const { set, get, api } = ctx
  return {
    async planRetry() {
      const { environment, runId, retry } = get()
      if (!environment || !runId || retry.state === 'planning' || retry.state === 'confirming')
        return
      const mine = ctx.generation()
      set({ retry: { state: 'planning' } })
      try {
        const plan = await api.planRetryFailed({ environment, runId })
        if (mine !== ctx.generation()) return
        set({ retry: { state: 'confirming', plan, sending: false, error: null } })
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
          ...(choice.maxCostT !== undefined ? { maxCostT: choice.maxCostT } : {}),
          ...(choice.again ? { again: true } : {}),
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
