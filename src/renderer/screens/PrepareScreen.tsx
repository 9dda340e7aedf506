import { useEffect } from 'react'
import type { DraftStep, EnvironmentView } from '../../shared/bridge'
import { ConnectionCheck } from '../components/ConnectionCheck'
import { usePrepare, useStores } from '../stores/context'
import type { RestoredNote } from '../stores/prepare/draft-slice'
import { SchemaForm } from '../prepare/SchemaForm'
import { TargetPicker } from '../prepare/TargetPicker'
import { WorkbookPanel } from '../prepare/WorkbookPanel'
import { SendPanel } from '../prepare/SendPanel'

/**
 * "New run": choose what to run, see its form and get its workbook, drop the filled workbook and
 * fix it until it is clean, then review the cost and send. Each step works offline except the
 * sending, which says so. After a reload or a restart, the draft brings the user back to the step
 * they were on (said in a note that stays in view).
 */
export function PrepareScreen(props: { env: EnvironmentView }) {
  const { prepare } = useStores()
  useEffect(() => {
    void prepare.getState().open(props.env.name)
  }, [prepare, props.env.name])

  return (
    <div className="prepare">
      <RestoredDraftNote />
      <div className="prepare-top">
        <TargetPicker key={props.env.name} />
        <ConnectionCheck env={props.env} />
      </div>
      <SchemaForm />
      <WorkbookPanel />
      <SendPanel env={props.env} />
    </div>
  )
}

/** Each step's heading, to bring the restored step into view. */
const STEP_HEADINGS: Record<DraftStep, string> = {
  target: 'target-title',
  workbook: 'workbook-title',
  files: 'files-title',
  send: 'send-title',
  sent: 'target-title',
}

const STEP_WORDS: Record<Exclude<DraftStep, 'sent'>, string> = {
  target: 'choosing what to run.',
  workbook: 'checking your workbook.',
  files: 'the files your workbook names.',
  send: 'reviewing the cost and sending. Nothing has been sent.',
}

function problemWords(problem: NonNullable<RestoredNote['workbookProblem']>): string {
  return problem.state === 'changed'
    ? `“${problem.name}” has changed since you left, so it was not checked again. Choose it again in step 3 to check it as it is now.`
    : `“${problem.name}” is no longer where it was. Choose it again in step 3.`
}

/** "Picked up where you left off": what the draft brought back, or the run it became. */
function RestoredDraftNote() {
  const { prepare, nav } = useStores()
  const restored = usePrepare((s) => s.restored)
  useEffect(() => {
    if (!restored) return
    const heading = document.getElementById(
      restored.workbookProblem ? 'workbook-title' : STEP_HEADINGS[restored.step],
    )
    heading?.scrollIntoView({ block: 'center' })
  }, [restored])
  if (!restored) return null
  const dismiss = () => prepare.getState().dismissRestored()
  const chooseAgain = () => {
    document.querySelector<HTMLElement>('#workbook-title')?.scrollIntoView({ block: 'center' })
    document.querySelector<HTMLInputElement>('input[aria-label="Choose a workbook"]')?.click()
  }
  return (
    <div className="prep-note draft-note" role="status" data-testid="draft-note">
      <div className="draft-note-text">
        <p>
          <strong>Picked up where you left off</strong>
          {restored.sentRunId ? (
            <>
              : your run was sent.{' '}
              <button
                type="button"
                className="link-button"
                data-run-id={restored.sentRunId}
                onClick={() => nav.getState().openRun(restored.sentRunId!)}
              >
                Open it
              </button>{' '}
              or choose what to run next.
            </>
          ) : restored.workbookProblem ? (
            '. Your choices are as you left them.'
          ) : (
            `: ${STEP_WORDS[restored.step === 'sent' ? 'target' : restored.step]}`
          )}
        </p>
        {restored.workbookProblem && <p>{problemWords(restored.workbookProblem)}</p>}
      </div>
      <div className="prep-actions">
        {restored.workbookProblem && (
          <button type="button" className="btn btn-small btn-primary" onClick={chooseAgain}>
            Choose it again…
          </button>
        )}
        <button type="button" className="btn btn-small" onClick={dismiss}>
          OK
        </button>
      </div>
    </div>
  )
}
