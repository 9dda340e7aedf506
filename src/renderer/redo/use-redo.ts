import { useCallback, useState } from 'react'
import type { RunOverview } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import type { SendAgainStage } from '../stores/run-detail/retry-types'

export type Redo = { state: 'idle' | 'planning' } | SendAgainStage

/**
 * One redo of chosen rows of a run: planned (its cost), confirmed by the user in the same dialog
 * as any paid run, then sent. The rows are named as the user sees them (sheet rows, or positions
 * in the submission). Used by the rows marked in the table and by the typed row numbers.
 */
export function useRedo(overview: RunOverview) {
  const { bridge, runDetail } = useStores()
  const { environment } = overview
  const { runId } = overview.detail.run
  const [redo, setRedo] = useState<Redo>({ state: 'idle' })

  const plan = useCallback(
    async (rows: number[]) => {
      setRedo({ state: 'planning' })
      try {
        const planned = await bridge.api.planRedo({ environment, runId, rows })
        setRedo({ state: 'confirming', plan: planned, sending: false, error: null })
      } catch (error) {
        setRedo({ state: 'failed', error: errorInfo(error) })
      }
    },
    [bridge, environment, runId],
  )
  const confirm = async (choice: { maxCostT?: number | undefined }) => {
    if (redo.state !== 'confirming' || redo.sending) return false
    setRedo({ ...redo, sending: true, error: null })
    try {
      const sent = await bridge.api.confirmSubmission({
        environment,
        planId: redo.plan.planId,
        confirmed: true,
        ...(choice.maxCostT !== undefined ? { maxCostT: choice.maxCostT } : {}),
      })
      setRedo({ state: 'sent', runId: sent.runId })
      // The run's overview now names the redo, and its rows' versions follow.
      void runDetail.getState().refresh()
      return true
    } catch (error) {
      setRedo({ ...redo, sending: false, error: errorInfo(error) })
      return false
    }
  }
  const close = () => setRedo({ state: 'idle' })
  const busy = redo.state === 'planning' || redo.state === 'confirming'
  return { redo, plan, confirm, close, busy }
}
