import type { BatchView } from '../../shared/bridge'
import { plural } from '../../shared/amounts'
import { ErrorNotice } from '../components/ErrorNotice'
import { ConfirmSubmission } from '../prepare/ConfirmSubmission'
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
  const { step, plan, confirm, close, busy } = usePlanThenSend({
    environment,
    makePlan: (sheetRows: number[]) =>
      bridge.api.planBatchRows({ environment, batchId, rows: sheetRows }),
    // The new run's rows show as running at once: the batch joined it when it was confirmed.
    onSent: () => void store.getState().refresh(),
  })
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
      {step.state === 'failed' && (
        <ErrorNotice error={step.error} onRetry={() => void plan(rows)} onDismiss={close} />
      )}
      {step.state === 'confirming' && (
        <ConfirmSubmission
          plan={step.plan}
          sending={step.sending}
          error={step.error}
          onConfirm={(choice) => void confirm(choice)}
          onCancel={() => {
            if (!step.sending) close()
          }}
          {...(unpaid
            ? { onSendOnlyNew: { rows: unpaid.length, send: () => void plan(unpaid) } }
            : {})}
        />
      )}
    </div>
  )
}
