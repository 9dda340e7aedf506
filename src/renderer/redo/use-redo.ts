import type { RunOverview } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { usePlanThenSend, type PlanThenSendStep } from '../prepare/use-plan-then-send'

export type Redo = PlanThenSendStep

/**
 * One redo of chosen rows of a run: planned (its cost), confirmed by the user in the same dialog
 * as any paid run, then sent. The rows are named as the user sees them (sheet rows, or positions
 * in the submission). Used by the rows marked in the table and by the typed row numbers.
 */
export function useRedo(overview: RunOverview) {
  const { bridge, runDetail } = useStores()
  const { environment } = overview
  const { runId } = overview.detail.run
  const { step, plan, confirm, close, busy } = usePlanThenSend({
    environment,
    makePlan: (rows: number[]) => bridge.api.planRedo({ environment, runId, rows }),
    // The run's overview now names the redo, and its rows' versions follow.
    onSent: () => void runDetail.getState().refresh(),
  })
  return { redo: step, plan, confirm, close, busy }
}
