import { useState } from 'react'
import type { PilotRestView, RunOverview } from '../../shared/bridge'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { estimateWords, plural } from '../../shared/format/amounts'
import { Card } from '../components/CardParts'
import { PlanThenSendSteps } from '../prepare/PlanThenSendSteps'
import { usePlanThenSend } from '../prepare/use-plan-then-send'
import { useStores } from '../stores/context'
import { useLatestAnswer } from '../components/use-latest-answer'

/**
 * After a pilot: "Send the remaining M rows" with their cost, through the same confirmation as
 * any send. Shown for an ended run sent here from a workbook whose batch left rows unsent; the
 * rest goes as a new run of the same batch, and the pilot's rows are not sent again.
 */
export function RestOfPilotCard(props: { overview: RunOverview }) {
  const { bridge } = useStores()
  const { environment, fromThisDevice, detail } = props.overview
  const { runId, status } = detail.run
  const ended = isTerminalStatus(status)
  const [rest, setRest] = useState<PilotRestView | null>(null)
  const send = useSendRest(environment, runId)
  const { step, plan, busy } = send

  useLatestAnswer(
    () => {
      setRest(null)
      if (!fromThisDevice || !ended) return null
      return bridge.api.getPilotRest({ environment, runId }).catch(() => null)
    },
    setRest,
    [bridge, environment, runId, fromThisDevice, ended],
  )

  if (!rest) return null
  const cost = estimateWords(rest)
  return (
    <Card
      titleId="rest-title"
      level={3}
      title="The rest of the workbook"
      sub={`${plural(rest.rowCount, 'row')} of the workbook ${rest.pilotRunId === runId ? 'this pilot' : 'its pilot'} was sent from ${rest.rowCount === 1 ? 'is' : 'are'} not sent yet. Cost: ${cost}. The rows already sent are not sent again.`}
      testId="rest-of-pilot"
      tools={
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() => void plan()}
        >
          {step.state === 'planning'
            ? 'Reading the workbook…'
            : `Send the remaining ${plural(rest.rowCount, 'row')}…`}
        </button>
      }
    >
      <PlanThenSendSteps send={send} planAgain={() => void plan()} />
    </Card>
  )
}

/** Planning the rest, then confirming it: the new run opens once the service accepts it. */
function useSendRest(environment: string, runId: string) {
  const { bridge, nav } = useStores()
  return usePlanThenSend({
    environment,
    makePlan: () => bridge.api.planRestOfPilot({ environment, runId }),
    onSent: (sentRunId) => nav.getState().openRun(sentRunId),
  })
}
