import type { ConnectionStep, EnvironmentView } from '../../shared/bridge'
import { useEnvironments, useStores } from '../stores/context'
import { checkFor } from '../stores/environments-selectors'
import { ErrorNotice } from './ErrorNotice'
import { STEP_TITLES, stepWords, versionDetail } from '../stores/plain-words'
import { Card, Details } from './CardParts'

const PLANNED: Array<Pick<ConnectionStep, 'step'>> = [
  { step: 'healthz' },
  { step: 'version' },
  { step: 'auth' },
]

/** The three connection checks in order, each with its own result and message. */
export function ConnectionCheck(props: { env: EnvironmentView }) {
  const { environments } = useStores()
  const check = useEnvironments((s) => checkFor(s, props.env.name))
  const steps = check.report?.steps
  const verdict = check.running
    ? 'Checking…'
    : check.report
      ? check.report.ok
        ? 'All good: this environment is ready.'
        : 'Something needs your attention.'
      : 'Not checked yet.'

  return (
    <Card
      titleId="check-title"
      title="Connection"
      sub="Is the service there, is it the right kind, and is your token accepted."
      tools={
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void environments.getState().check(props.env.name)}
          disabled={check.running}
        >
          {check.running ? 'Checking…' : check.report ? 'Check again' : 'Check connection'}
        </button>
      }
    >
      <p
        className={`verdict ${check.report ? (check.report.ok ? 'verdict-ok' : 'verdict-bad') : ''}`}
        aria-live="polite"
      >
        {verdict}
      </p>
      <ol className="steps" aria-label="Connection checks">
        {(steps ?? PLANNED).map((step) => {
          const full = steps ? (step as ConnectionStep) : null
          const state = check.running
            ? 'running'
            : !full
              ? 'idle'
              : full.skipped
                ? 'skipped'
                : full.ok
                  ? 'ok'
                  : 'bad'
          return (
            <li
              key={step.step}
              className={`step step-${state}`}
              data-step={step.step}
              data-state={state}
            >
              <StepIcon state={state} />
              <div>
                <p className="step-title">{STEP_TITLES[step.step]}</p>
                {full && <p className="step-message">{stepWords(full)}</p>}
                {full && versionDetail(full) && (
                  <Details>
                    <p>{versionDetail(full)}</p>
                  </Details>
                )}
              </div>
            </li>
          )
        })}
      </ol>
      {check.error && (
        <ErrorNotice
          error={check.error}
          onRetry={() => void environments.getState().check(props.env.name)}
        />
      )}
    </Card>
  )
}

function StepIcon(props: { state: string }) {
  const label = {
    ok: 'Passed',
    bad: 'Failed',
    skipped: 'Not tried',
    running: 'Checking',
    idle: 'Not checked',
  }[props.state]
  return (
    <span className={`step-icon step-icon-${props.state}`} role="img" aria-label={label}>
      <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        {props.state === 'ok' && <path d="M5 10.5 8.5 14 15 6.5" />}
        {props.state === 'bad' && <path d="M6 6l8 8M14 6l-8 8" />}
        {(props.state === 'skipped' || props.state === 'idle') && <path d="M6 10h8" />}
        {props.state === 'running' && <circle cx="10" cy="10" r="5" />}
      </svg>
    </span>
  )
}
