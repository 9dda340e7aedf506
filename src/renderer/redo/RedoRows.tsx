import { useId, useState } from 'react'
import type { BridgeErrorInfo, RunOverview, SubmissionPlanView } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { ConfirmSubmission } from '../prepare/ConfirmSubmission'
import { useStores } from '../stores/context'
import { SentAsNewRun } from '../runs/SentAsNewRun'
import { errorInfo } from '../stores/errors'

type Redo =
  | { state: 'idle' | 'planning' }
  | {
      state: 'confirming'
      plan: SubmissionPlanView
      sending: boolean
      error: BridgeErrorInfo | null
    }
  | { state: 'sent'; runId: string }
  | { state: 'failed'; error: BridgeErrorInfo }

/** "3, 7, 12" or "3-5": the row numbers typed, or null when something is not one. */
function typedRows(text: string): number[] | null {
  const numbers: number[] = []
  for (const part of text.split(/[,\s]+/).filter(Boolean)) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part)
    if (!match) return null
    const first = Number(match[1])
    const last = match[2] === undefined ? first : Number(match[2])
    if (first < 1 || last < first || last - first > 10_000) return null
    for (let n = first; n <= last; n += 1) numbers.push(n)
  }
  return numbers.length ? [...new Set(numbers)] : null
}

/**
 * "Redo rows": chosen rows of this run sent again as a new run (outputs the user found poor),
 * with the same confirmation as any paid run before anything is sent. Only for runs sent from
 * this computer: the rows are kept where they were sent from.
 */
export function RedoRows(props: { overview: RunOverview }) {
  const { bridge, runDetail } = useStores()
  const { environment, detail, rowNumbers, fromThisDevice } = props.overview
  const [text, setText] = useState('')
  const [redo, setRedo] = useState<Redo>({ state: 'idle' })
  const id = useId()
  if (!fromThisDevice) return null
  const rows = typedRows(text)
  const words = rowNumbers ? 'sheet rows' : 'submitted rows'

  const plan = async () => {
    if (!rows) return
    setRedo({ state: 'planning' })
    try {
      const planned = await bridge.api.planRedo({ environment, runId: detail.run.runId, rows })
      setRedo({ state: 'confirming', plan: planned, sending: false, error: null })
    } catch (error) {
      setRedo({ state: 'failed', error: errorInfo(error) })
    }
  }
  const confirm = async (choice: { maxCostT?: number | undefined }) => {
    if (redo.state !== 'confirming' || redo.sending) return
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
    } catch (error) {
      setRedo({ ...redo, sending: false, error: errorInfo(error) })
    }
  }

  return (
    <div className="outputs-action redo-rows">
      <label htmlFor={id}>Redo rows</label>
      <input
        id={id}
        value={text}
        placeholder="3, 7, 12"
        aria-describedby={`${id}-hint`}
        aria-invalid={(text.trim() !== '' && rows === null) || undefined}
        onChange={(e) => setText(e.target.value)}
      />
      <button
        type="button"
        className="btn btn-secondary"
        disabled={!rows || redo.state === 'planning' || redo.state === 'confirming'}
        onClick={() => void plan()}
      >
        {redo.state === 'planning'
          ? 'Preparing…'
          : rows
            ? `Redo ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`
            : 'Redo rows'}
      </button>
      <span className="save-text" id={`${id}-hint`}>
        By their {words}; a redo is a new run of only those, shown with its cost first.
      </span>
      <RedoOutcome
        redo={redo}
        onConfirm={(choice) => void confirm(choice)}
        onClose={() => setRedo({ state: 'idle' })}
      />
    </div>
  )
}

/** How the redo went: its error, the new run, or the confirmation before anything is sent. */
function RedoOutcome(props: {
  redo: Redo
  onConfirm: (choice: { maxCostT?: number | undefined }) => void
  onClose: () => void
}) {
  const { redo } = props
  return (
    <>
      {redo.state === 'failed' && <ErrorNotice error={redo.error} onDismiss={props.onClose} />}
      {redo.state === 'sent' && <SentAsNewRun runId={redo.runId} />}
      {redo.state === 'confirming' && (
        <ConfirmSubmission
          // Told as the rows they are: the dialog's "retry" words are for failed rows.
          plan={{ ...redo.plan, retryOfRunId: null }}
          sending={redo.sending}
          error={redo.error}
          onConfirm={props.onConfirm}
          onCancel={props.onClose}
        />
      )}
    </>
  )
}
