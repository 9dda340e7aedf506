import { useEffect, useId } from 'react'
import { CancelButton, useCancel } from './CancelButton'
import type {
  BridgeErrorInfo,
  ConfirmChoice,
  EnvironmentView,
  SubmissionPlanView,
} from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { useFields, usePrepare, useStores } from '../stores/context'
import { SendOptions } from './SendOptions'
import { Loading, onDemand } from '../components/on-demand'
import { rowsNotPaidBefore } from './SentBeforeNotes'
import { Card } from '../components/CardParts'
import { useShallow } from 'zustand/react/shallow'
import { rowsToSetAside, sendBlocker, workbookBlocker } from '../stores/prepare/send-blocker'
import { plural } from '../../shared/format/amounts'

/**
 * The confirmation comes as a chunk of its own, fetched once step 4 is drawn: the first screen's
 * JavaScript stays small, and by the time a plan is made the dialog draws at once.
 */
const ConfirmSubmission = onDemand(
  async () => (await import('./ConfirmSubmission')).ConfirmSubmission,
)

/**
 * Step 4: all rows or a pilot of the first N, then the confirmation with the cost. Sending needs
 * the service: offline, this says so and keeps the checked workbook ready. Sends that have not
 * been answered yet (even from before a restart) show as "sending" until the service answers.
 */
export function SendPanel(props: { env: EnvironmentView }) {
  const { prepare, nav, runs } = useStores()
  const { check, plan, planError, sending, sendError, planning } = useFields(
    'prepare',
    'check',
    'plan',
    'planError',
    'sending',
    'sendError',
    'planning',
  )
  const ready = usePrepare(workbookBlocker) === null
  useEffect(() => ConfirmSubmission.preload(), [])

  async function confirm(choice: ConfirmChoice) {
    const sent = await prepare.getState().confirmSend(choice)
    if (sent?.runId) {
      void runs.getState().refresh()
      nav.getState().openRun(sent.runId)
    }
  }

  return (
    <Card
      titleId="send-title"
      title="4. Send"
      sub={
        ready
          ? `Review the cost and send to ${props.env.name}. Nothing is charged before you confirm.`
          : 'Once the workbook has no problems, you review the cost here and send it.'
      }
      className="prep-card"
    >
      <PendingSends />

      {check?.schemaFromCache && (
        <p className="prep-note" role="status">
          Sending needs the service, and it cannot be reached right now. Your workbook is checked
          and ready: send it when you are back online.
        </p>
      )}

      <PilotChoice ready={ready} />

      <SendOptions disabled={planning} />

      <PlanActions />

      {planError && <PlanError error={planError} environment={props.env.name} />}

      {plan && (
        <Loading>
          <ConfirmSubmission
            plan={plan}
            sending={sending}
            error={sendError}
            onConfirm={(choice) => void confirm(choice)}
            onCancel={() => prepare.getState().closePlan()}
            onOpenRun={(runId) => {
              prepare.getState().closePlan()
              nav.getState().openRun(runId)
            }}
            {...onlyNewOf(plan, (rows) => void prepare.getState().planOnlyNew(rows))}
          />
        </Loading>
      )}
    </Card>
  )
}

/** After a pilot, "All rows" can go back to only the rows of the sheet not sent yet. */
function onlyNewOf(plan: SubmissionPlanView, send: (rows: number[]) => void) {
  const rows = plan.batchId ? rowsNotPaidBefore(plan) : null
  return rows ? { onSendOnlyNew: { rows: rows.length, send: () => send(rows) } } : {}
}

/**
 * "Review the cost and send…", with Cancel while the cost is worked out (the planning is
 * abandoned: nothing was sent, nothing is charged), and why sending is not possible yet.
 */
function PlanActions() {
  const { prepare } = useStores()
  const { planning, planStopped, plan } = useFields('prepare', 'planning', 'planStopped', 'plan')
  const blocker = usePrepare(sendBlocker)
  const reasonId = useId()
  const { restart, cancel } = useCancel(planStopped, () => prepare.getState().cancelPlan())
  return (
    <>
      <div className="prep-actions">
        <button
          ref={restart}
          type="button"
          className="btn btn-primary"
          disabled={blocker !== null || planning}
          aria-describedby={blocker ? reasonId : undefined}
          onClick={() => void prepare.getState().planSend()}
        >
          {planning ? 'Working out the cost…' : 'Review the cost and send…'}
        </button>
        {planning && <CancelButton onCancel={cancel} />}
        {blocker && (
          <span id={reasonId} className="prep-muted send-blocker">
            {blocker}
          </span>
        )}
        <SetAsideOffer />
      </div>

      {planStopped && !planning && !plan && (
        <p className="prep-note" role="status">
          Stopped working out the cost. Nothing was sent and nothing was charged.
        </p>
      )}
    </>
  )
}

/**
 * When some rows have problems and the rest are fine: send the valid ones and set the others
 * aside in a workbook to fix (kept with the run; dropped again later, it sends just those).
 */
function SetAsideOffer() {
  const { prepare } = useStores()
  // A listing too: its service is then sent a copy of the valid rows under its own headers.
  const aside = usePrepare(useShallow(rowsToSetAside))
  const { planning, pilot } = useFields('prepare', 'planning', 'pilot')
  if (!aside) return null
  const { good, bad } = aside
  return (
    <button
      type="button"
      className="btn btn-secondary"
      disabled={planning}
      onClick={() => void prepare.getState().planSend({ skipInvalid: true })}
    >
      {pilot.on
        ? `Send a pilot of ${Math.min(pilot.rows, good).toLocaleString('en-US')} of the ${good.toLocaleString('en-US')} valid rows and set ${bad} aside to fix…`
        : `Send ${good.toLocaleString('en-US')} valid ${good === 1 ? 'row' : 'rows'} and set ${bad} aside to fix…`}
    </button>
  )
}

/** Sends journaled but not answered yet: they are sent again until the service answers. */
function PendingSends() {
  const pending = usePrepare((s) => s.pending)
  return (
    <>
      {pending.length > 0 && (
        <ul className="pending-list" aria-label="Sends waiting for an answer">
          {pending.map((p) => (
            <li key={p.clientRequestId} className="prep-note" role="status">
              Sending “{p.fileName || p.target.name}” ({plural(p.rowCount, 'row')}) to{' '}
              {p.target.name}… waiting for the service to answer
              {p.error ? `. Last try: ${p.error}` : ''}. It is sent again with the same request
              until it is answered, so it is charged once.
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

/**
 * All rows, or a pilot of the first N: of the valid rows when the others are to be set aside
 * (the pilot's rest is then the remaining valid rows).
 */
function PilotChoice(props: { ready: boolean }) {
  const { prepare } = useStores()
  const id = useId()
  const { pilot, planning } = useFields('prepare', 'pilot', 'planning')
  const aside = usePrepare(useShallow(rowsToSetAside))
  const rowCount = usePrepare((s) => aside?.good ?? s.check?.rowCount ?? 0)
  const ready = props.ready || aside !== null
  return (
    <fieldset className="pilot" disabled={!ready || planning}>
      <legend className="prep-subtitle">Rows to send</legend>
      <label className="check-label">
        <input
          type="radio"
          name={`${id}-pilot`}
          checked={!pilot.on}
          onChange={() => prepare.getState().setPilot({ ...pilot, on: false })}
        />
        All {rowCount.toLocaleString('en-US')} {aside ? 'valid rows' : 'rows'}
      </label>
      <label className="check-label">
        <input
          type="radio"
          name={`${id}-pilot`}
          checked={pilot.on}
          onChange={() => prepare.getState().setPilot({ ...pilot, on: true })}
        />
        A pilot of the first
        <input
          className="pilot-rows"
          type="number"
          min={1}
          max={Math.max(1, rowCount)}
          value={pilot.rows}
          aria-label="Rows in the pilot"
          onChange={(e) => prepare.getState().setPilot({ on: true, rows: Number(e.target.value) })}
        />
        rows, to see the results and the real cost first
      </label>
    </fieldset>
  )
}

/** Why the cost could not be worked out; out of reach, it says the workbook stays ready. */
function PlanError(props: { error: BridgeErrorInfo; environment: string }) {
  const { prepare } = useStores()
  const retry = () => void prepare.getState().planSend()
  const { error } = props
  if (error.code !== 'unreachable') return <ErrorNotice error={error} onRetry={retry} />
  return (
    <ErrorNotice
      error={{
        ...error,
        message: `Sending needs the service, and ${props.environment} cannot be reached right now.`,
        nextStep: 'Your workbook stays checked and ready: try again when you are back online.',
      }}
      onRetry={retry}
    />
  )
}
