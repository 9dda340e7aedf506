import { useState } from 'react'
import type { SubmissionPlanView } from '../../shared/bridge'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import type { SendAgainStage } from '../stores/run-detail/retry-types'
import type { ConfirmChoice } from '../../shared/bridge'

/** Where a paid send made from a run stands: nothing yet, being planned, then as SendAgainStage. */
export type PlanThenSendStep = { state: 'idle' | 'planning' } | SendAgainStage

/**
 * The steps every paid send from a run's page takes (a redo of rows, the rest of a pilot): plan
 * it (its cost), show it in the usual confirmation, and send only once the user confirms. What
 * follows a send is the caller's: the step names the new run, and `onSent` refreshes or opens
 * what the new run changes.
 */
export function usePlanThenSend<Args extends unknown[]>(how: {
  environment: string
  makePlan: (...args: Args) => Promise<SubmissionPlanView>
  onSent: (runId: string) => void
}) {
  const { environment, makePlan } = how
  const { bridge } = useStores()
  const [step, setStep] = useState<PlanThenSendStep>({ state: 'idle' })

  const plan = async (...args: Args) => {
    setStep({ state: 'planning' })
    try {
      const planned = await makePlan(...args)
      setStep({ state: 'confirming', plan: planned, sending: false, error: null })
    } catch (error) {
      setStep({ state: 'failed', error: errorInfo(error) })
    }
  }
  /** Sends the confirmed plan; true once the service took it. */
  const confirm = async (choice: ConfirmChoice) => {
    if (step.state !== 'confirming' || step.sending) return false
    setStep({ ...step, sending: true, error: null })
    try {
      const sent = await bridge.api.confirmSubmission({
        environment,
        planId: step.plan.planId,
        confirmed: true,
        ...choice,
      })
      setStep({ state: 'sent', runId: sent.runId })
      how.onSent(sent.runId)
      return true
    } catch (error) {
      setStep({ ...step, sending: false, error: errorInfo(error) })
      return false
    }
  }
  const close = () => setStep({ state: 'idle' })
  const busy = step.state === 'planning' || step.state === 'confirming'
  return { step, plan, confirm, close, busy }
}
