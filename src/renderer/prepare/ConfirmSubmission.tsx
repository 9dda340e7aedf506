import { Details } from '../components/CardParts'
import { MonthlyLimitNote } from './MonthlyLimitNote'
import { useId, useState } from 'react'
import type { BridgeErrorInfo, ConfirmChoice, SubmissionPlanView } from '../../shared/bridge'
import { Dialog } from '../components/Dialog'
import { ErrorNotice } from '../components/ErrorNotice'
import {
  agreeWords,
  formatAmount,
  estimateSourceWords,
  estimateWords,
  plural,
  type EstimateFacts,
} from '../../shared/format/amounts'
import { sheetRowsText } from '../../shared/format/rows'
import { Checkbox } from '../components/Field'
import { defined } from '../../shared/defined'
import { SentBeforeNote, type SendOnlyNew } from './SentBeforeNotes'
import { useCallbackChoice } from './ConfirmCallback'

/** The plan's estimate facts, for the shared words of src/shared/amounts.ts. */
function factsOf(plan: SubmissionPlanView): EstimateFacts {
  return {
    ...plan,
    targetKind: plan.target.kind,
    isPilot: plan.pilotRows !== null,
    runs: plan.parts?.count,
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

function rowsWords(plan: SubmissionPlanView): string {
  const rows = plan.rowNumbering === 'spreadsheet' ? sheetRowsText(plan.rowNumbers) : ''
  const where = rows ? ` (${rows} of the sheet)` : ''
  if (plan.followsSetAsideOf)
    return `${plural(plan.rowCount, 'fixed row')} set aside from an earlier run${where}`
  if (plan.setAsideRows)
    return `${plan.pilotRows !== null ? 'A pilot: the first ' : ''}${plural(plan.rowCount, 'valid row')}${where}; ${plural(plan.setAsideRows, 'row')} with problems set aside to fix, not sent and not counted`
  // Rows chosen on the batch page: whatever else the plan links, they were chosen.
  if (plan.sendKind === 'chosen') return `${plural(plan.rowCount, 'chosen row')}${where}`
  if (plan.restOfPilotRunId)
    return `The rest after the pilot: ${plural(plan.rowCount, 'row')}${where}, none of them sent before`
  if (plan.retryOfRunId) return `${plural(plan.rowCount, 'failed row')} of this run${where}`
  if (plan.pilotRows !== null)
    return `A pilot: the first ${plural(plan.rowCount, 'row')} of ${plan.totalRows.toLocaleString('en-US')}${where}`
  return `${plural(plan.rowCount, 'row')}${where}`
}

function titleOf(plan: SubmissionPlanView): string {
  if (plan.followsSetAsideOf) return `Send ${plural(plan.rowCount, 'fixed row')}?`
  if (plan.setAsideRows)
    return `Send ${plan.pilotRows !== null ? 'a pilot of ' : ''}${plural(plan.rowCount, 'valid row')} and set ${plan.setAsideRows} aside?`
  return plan.retryOfRunId
    ? `Retry ${plural(plan.rowCount, 'failed row')}?`
    : `Send ${plural(plan.rowCount, 'row')} to ${plan.target.name}?`
}

/** The send button's words: the estimate when known. */
function sendWords(plan: SubmissionPlanView): string {
  return plan.estimateT !== null
    ? `Send for about ${formatAmount(plan.estimateT, plan.unitLabel)}`
    : `Send ${plural(plan.rowCount, 'row')}`
}

/** What the buyer chose: the cap, sending identical rows again, and what `more` adds. */
function choiceOf(cap: number | undefined, again: boolean, more: ConfirmChoice): ConfirmChoice {
  return { ...defined({ maxCostT: cap, again: again || undefined }), ...more }
}

/** The spending cap as typed, and what it says about this plan. */
function capCheck(capText: string, estimateT: number | null) {
  const cap = capText.trim() === '' ? undefined : Number(capText)
  const invalid = cap !== undefined && (!Number.isInteger(cap) || cap < 0)
  const set = cap !== undefined && !invalid
  return {
    cap,
    invalid,
    over: set && estimateT !== null && estimateT > cap,
    unknown: set && estimateT === null,
  }
}

/**
 * The confirmation before anything is sent: what, which rows, the cost and how it was worked
 * out, the listing's terms, a spending cap, and the question when the same rows were already
 * sent. Nothing is sent until the user ticks the one "I agree to pay" box and presses the send
 * button: the same for templates, listings, pilots and retries. While the service has not
 * answered, it says "Sending…" and cannot be closed. Used for new runs and for "Retry failed rows".
 */
interface ConfirmSubmissionProps {
  plan: SubmissionPlanView
  sending: boolean
  error: BridgeErrorInfo | null
  onConfirm: (choice: ConfirmChoice) => void
  onCancel: () => void
  /** Opens an earlier run (the duplicate's). */
  onOpenRun?: (runId: string) => void
  /** When some rows were paid for before: plan again without them. */
  onSendOnlyNew?: SendOnlyNew
  /** What else the buyer did to the rows before this send ("1 row edited by you"). */
  rowsNote?: string
}

export function ConfirmSubmission(props: ConfirmSubmissionProps) {
  const { plan, sending } = props
  const [capText, setCapText] = useState('')
  // The agreement names the cap, so it holds for the cap it was given under: a new cap asks again.
  const [agreedUnder, setAgreedUnder] = useState<string | null>(null)
  const agreed = agreedUnder === capText
  const [again, setAgain] = useState(false)
  const callback = useCallbackChoice(plan, sending)
  const capState = capCheck(capText, plan.estimateT)
  const { cap } = capState
  const valid = plan.validation.valid && plan.planId !== ''
  const capBlocks = capState.invalid || capState.over || capState.unknown
  // Rows sent and paid for before go again only once the user says so, in words of its own.
  const sentBefore = plan.duplicateOf !== null || Boolean(plan.paidBefore)
  const canSend = valid && !sending && !capBlocks && agreed && (!sentBefore || again)
  const sendLabel = sending ? 'Sending…' : sendWords(plan)

  return (
    <Dialog
      title={titleOf(plan)}
      description="Check what will be sent and what it costs. Nothing is sent until you confirm."
      onClose={() => {
        if (!sending) props.onCancel()
      }}
    >
      <div className="confirm-body" data-testid="confirm-submission">
        <PlanFacts plan={plan} rowsNote={props.rowsNote} />
        {callback.fact}
        {!valid && <PlanProblems plan={plan} />}
        <SentBeforeNote
          plan={plan}
          again={again}
          setAgain={setAgain}
          sending={sending}
          {...(props.onOpenRun ? { onOpenRun: props.onOpenRun } : {})}
          {...(props.onSendOnlyNew ? { sendOnlyNew: props.onSendOnlyNew } : {})}
        />
        {plan.parts && (
          <p className="prep-note" role="note" data-testid="plan-parts">
            {plan.parts.words}
          </p>
        )}
        {plan.unansweredOf && <UnansweredNote sentAtMs={plan.unansweredOf.sentAtMs} />}
        {plan.monthlyLimit && <MonthlyLimitNote limit={plan.monthlyLimit} />}
        {valid && (
          <>
            <SpendingCap
              plan={plan}
              capText={capText}
              setCapText={setCapText}
              check={capState}
              sending={sending}
            />
            <AgreeToPay
              plan={plan}
              capT={capState.invalid ? undefined : cap}
              agreed={agreed}
              setAgreed={(yes) => setAgreedUnder(yes ? capText : null)}
              sending={sending}
            />
          </>
        )}
        {sending && <SendingNote />}
        {props.error && !sending && <ErrorNotice error={props.error} />}
        <ConfirmButtons
          label={sendLabel}
          canSend={canSend}
          sending={sending}
          onCancel={props.onCancel}
          onSend={() => props.onConfirm(choiceOf(cap, again, callback.choice))}
        />
      </div>
    </Dialog>
  )
}

/** What is sent, from which workbook, which rows, the cost and the listing's terms. */
function PlanFacts({
  plan,
  rowsNote,
}: {
  plan: SubmissionPlanView
  rowsNote?: string | undefined
}) {
  return (
    <dl className="confirm-facts">
      <div>
        <dt>What</dt>
        <dd>
          {plan.target.name}
          <span className="prep-muted">
            {plan.target.kind === 'listing'
              ? `Marketplace listing ${plan.target.listingId}, version ${plan.target.listingVersionId}`
              : `Official template ${plan.target.templateId}`}
          </span>
        </dd>
      </div>
      {plan.fileName && (
        <div>
          <dt>Workbook</dt>
          <dd>{plan.fileName}</dd>
        </div>
      )}
      <div>
        <dt>Rows</dt>
        <dd>
          {rowsWords(plan)}
          {rowsNote && `; ${rowsNote}`}
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd data-testid="confirm-cost">
          {capitalized(estimateWords(factsOf(plan)))}
          <span className="prep-muted confirm-small" data-testid="confirm-cost-source">
            Source: {estimateSourceWords(factsOf(plan), false)}
            {plan.estimateT !== null &&
              `. The service charges what the run actually costs, in ${plan.unitLabel}.`}
          </span>
          {plan.learnedFrom && (
            <Details>
              Learned from run <code>{plan.learnedFrom.runId}</code>
            </Details>
          )}
        </dd>
      </div>
      {plan.target.kind === 'listing' && (
        <div>
          <dt>Terms</dt>
          <dd>
            {plan.terms
              ? `Charged per row under the listing’s pricing terms “${plan.terms}”.`
              : 'The listing’s pricing terms are not shown to your account.'}
          </dd>
        </div>
      )}
    </dl>
  )
}

/** Why the plan cannot be sent: the workbook's first problems. */
function PlanProblems({ plan }: { plan: SubmissionPlanView }) {
  return (
    <div className="notice notice-error" role="alert">
      <div className="notice-text">
        <p className="notice-title">The workbook has problems, so it cannot be sent.</p>
        <ul className="confirm-problems">
          {[...plan.validation.fileErrors, ...plan.validation.rowErrors.map((e) => e.error)]
            .slice(0, 8)
            .map((message, i) => (
              <li key={i}>{message}</li>
            ))}
        </ul>
        <p className="notice-next">Fix them in the workbook, then check it again.</p>
      </div>
    </div>
  )
}

/** The optional spending cap, and what it says about this plan's estimate. */
function SpendingCap(props: {
  plan: SubmissionPlanView
  capText: string
  setCapText: (text: string) => void
  check: ReturnType<typeof capCheck>
  sending: boolean
}) {
  const id = useId()
  const { plan, check } = props
  const wrong = check.invalid || check.over || check.unknown
  return (
    <div className="field confirm-cap">
      <label htmlFor={`${id}-cap`}>Spending cap ({plan.unitLabel}, optional)</label>
      <input
        id={`${id}-cap`}
        inputMode="numeric"
        value={props.capText}
        onChange={(e) => props.setCapText(e.target.value)}
        disabled={props.sending}
        aria-describedby={`${id}-cap-hint`}
        aria-invalid={wrong || undefined}
      />
      <p id={`${id}-cap-hint`} className={wrong ? 'field-error' : 'field-hint'}>
        {check.invalid
          ? 'Enter a whole number, or leave it empty.'
          : check.over
            ? `The estimate (${formatAmount(plan.estimateT!, plan.unitLabel)}) is above your cap: send fewer rows (a pilot) or raise the cap.`
            : check.unknown
              ? 'The cost is not known before the run, so a cap cannot be checked: send a pilot first, or leave the cap empty.'
              : 'Nothing is sent if the estimate is above this amount.'}
      </p>
    </div>
  )
}

/** The one explicit agreement to pay, on every paid send: up to the cap, or the estimate. */
function AgreeToPay(props: {
  plan: SubmissionPlanView
  capT: number | undefined
  agreed: boolean
  setAgreed: (agreed: boolean) => void
  sending: boolean
}) {
  const { plan } = props
  return (
    <Checkbox
      className="check-label confirm-agree"
      checked={props.agreed}
      onChange={props.setAgreed}
      disabled={props.sending}
    >
      {agreeWords(factsOf(plan), props.capT)}
    </Checkbox>
  )
}

/** The same rows were sent before and never answered: confirming resends that same request. */
function UnansweredNote(props: { sentAtMs: number }) {
  return (
    <p className="prep-note" role="note">
      The same rows were sent on {new Date(props.sentAtMs).toLocaleString()} and the service never
      answered. Confirming sends that same request again, so it is charged once at most.
    </p>
  )
}

function SendingNote() {
  return (
    <p className="confirm-sending" role="status">
      Sending… waiting for the service to answer. If Skill Runner closes now, it sends the same
      request again when it starts, so you are charged once.
    </p>
  )
}

/** Cancel and send; neither while the send waits for the service. */
function ConfirmButtons(props: {
  label: string
  canSend: boolean
  sending: boolean
  onCancel: () => void
  onSend: () => void
}) {
  return (
    <div className="dialog-actions">
      <button
        type="button"
        className="btn btn-quiet"
        onClick={props.onCancel}
        disabled={props.sending}
      >
        Cancel
      </button>
      <button
        type="button"
        className="btn btn-primary"
        disabled={!props.canSend}
        onClick={props.onSend}
      >
        {props.label}
      </button>
    </div>
  )
}
