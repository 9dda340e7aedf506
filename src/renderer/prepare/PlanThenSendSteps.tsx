import { ErrorNotice } from '../components/ErrorNotice'
import { ConfirmSubmission } from './ConfirmSubmission'
import type { SendOnlyNew } from './SentBeforeNotes'
import type { usePlanThenSend } from './use-plan-then-send'

/**
 * What a usePlanThenSend shows while it plans and asks: why planning failed (with the way to
 * ask again), then the usual confirmation, which cannot be closed while it sends.
 */
export function PlanThenSendSteps(props: {
  send: Pick<ReturnType<typeof usePlanThenSend>, 'step' | 'confirm' | 'close'>
  planAgain: () => void
  sendOnlyNew?: SendOnlyNew | null
}) {
  const { step, confirm, close } = props.send
  if (step.state === 'failed')
    return <ErrorNotice error={step.error} onRetry={props.planAgain} onDismiss={close} />
  if (step.state !== 'confirming') return null
  return (
    <ConfirmSubmission
      plan={step.plan}
      sending={step.sending}
      error={step.error}
      onConfirm={(choice) => void confirm(choice)}
      onCancel={() => {
        if (!step.sending) close()
      }}
      {...(props.sendOnlyNew ? { onSendOnlyNew: props.sendOnlyNew } : {})}
    />
  )
}
