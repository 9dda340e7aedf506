import type { BatchView } from '../../shared/bridge'
import { plural } from '../../shared/format/amounts'
import { PlanThenSendSteps } from '../prepare/PlanThenSendSteps'
import { rowsNotPaidBefore } from '../prepare/SentBeforeNotes'
import { usePlanThenSend } from '../prepare/use-plan-then-send'
import { SentAsNewRun } from '../runs/SentAsNewRun'
import { useFields, useStores } from '../stores/context'

/**
 * "Send the chosen rows…": the rows chosen on the batch page planned with planBatchRows and sent
 * only through the usual confirmation; rows paid for before are sent again only when the buyer
 * says so there, or left out ("send only the rows not sent yet").
 */
export function BatchSend(props: { batch: BatchView }) {
  const { bridge, batch: store } = useStores()
  const { chosen } = useFields('batch', 'chosen')
  const { environment, batchId } = props.batch
  const rows = [...chosen].sort((a, b) => a - b)
  const send = usePlanThenSend({
    environment,
    makePlan: (sheetRows: number[]) =>
      bridge.api.planBatchRows({ environment, batchId, rows: sheetRows }),
    // The new run's rows show as running at once: the batch joined it when it was confirmed.
    onSent: () => void store.getState().refresh(),
  })
  const { step, plan, busy } = send
  const unpaid = step.state === 'confirming' ? rowsNotPaidBefore(step.plan, rows) : null
  return (
    <div className="batch-send" role="group" aria-label="Send chosen rows">
      <span className="save-text" aria-live="polite">
        {rows.length > 0
          ? `${plural(rows.length, 'row')} chosen`
          : 'Choose rows to send (Shift-click chooses a range).'}
      </span>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={rows.length === 0 || busy}
        onClick={() => void plan(rows)}
      >
        {step.state === 'planning'
          ? 'Reading the sheet…'
          : `Send ${rows.length > 0 ? plural(rows.length, 'chosen row') : 'chosen rows'}…`}
      </button>
      {rows.length > 0 && (
        <button
          type="button"
          className="btn btn-quiet"
          disabled={busy}
          onClick={() => store.getState().chooseNone()}
        >
          Clear the choice
        </button>
      )}
      {step.state === 'sent' && <SentAsNewRun runId={step.runId} />}
      <PlanThenSendSteps
        send={send}
        planAgain={() => void plan(rows)}
        sendOnlyNew={unpaid && { rows: unpaid.length, send: () => void plan(unpaid) }}
      />
    </div>
  )
}
