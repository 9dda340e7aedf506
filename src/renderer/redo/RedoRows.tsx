import { useId, useState } from 'react'
import type { RunOverview } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import type { ConfirmChoice } from '../../shared/bridge'
import { ConfirmSubmission } from '../prepare/ConfirmSubmission'
import { SentAsNewRun } from '../runs/SentAsNewRun'
import { useRedo, type Redo } from './use-redo'

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
  const { rowNumbers, fromThisDevice } = props.overview
  const [text, setText] = useState('')
  const { redo, plan, confirm, close, busy } = useRedo(props.overview)
  const id = useId()
  if (!fromThisDevice) return null
  const rows = typedRows(text)
  const words = rowNumbers ? 'sheet rows' : 'submitted rows'

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
        disabled={!rows || busy}
        onClick={() => rows && void plan(rows)}
      >
        {redo.state === 'planning'
          ? 'Preparing…'
          : rows
            ? `Redo ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`
            : 'Redo rows'}
      </button>
      <span className="save-text" id={`${id}-hint`}>
        Or mark them in the rows below. By their {words}; a redo is a new run of only those, shown
        with its cost first.
      </span>
      <RedoOutcome
        redo={redo}
        // Sent, the rows typed are done with: the box empties and "Redo rows" waits for new ones.
        onConfirm={(choice) => void confirm(choice).then((sent) => sent && setText(''))}
        onClose={close}
      />
    </div>
  )
}

/** How the redo went: its error, the new run, or the confirmation before anything is sent. */
export function RedoOutcome(props: {
  redo: Redo
  onConfirm: (choice: ConfirmChoice) => void
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
