/** The Usage screen's lists: per template or listing, and the runs of a chosen day or month. */
import type { UsagePeriodRunsView } from '../../shared/bridge'
import type { TargetUsage } from '../../shared/usage/figures'
import { periodLabel } from '../../shared/usage/calendar'
import { formatAmount } from '../../shared/format/amounts'
import { formatUnixMoment, statusLabel } from '../../shared/format'
import { useStores } from '../stores/context'

const kindWord = (kind: 'template' | 'listing') => (kind === 'listing' ? 'Listing' : 'Template')

export function TargetsTable(props: { targets: TargetUsage[]; unitLabel: string }) {
  const amount = (t: number) => formatAmount(t, props.unitLabel)
  if (props.targets.length === 0) {
    return <p className="card-sub">No run ended in the last 12 months.</p>
  }
  return (
    <div
      className="usage-table-scroll"
      tabIndex={0}
      role="region"
      aria-label="Per template or listing, the last 12 months"
    >
      <table className="plain-table usage-table">
        <caption className="visually-hidden">Per template or listing, the last 12 months</caption>
        <thead>
          <tr>
            <th scope="col">Template or listing</th>
            <th scope="col">Runs</th>
            <th scope="col">Rows run</th>
            <th scope="col">Rows succeeded</th>
            <th scope="col">Estimated</th>
            <th scope="col">Spent</th>
          </tr>
        </thead>
        <tbody>
          {props.targets.map((t) => (
            <tr key={t.key}>
              <th scope="row">
                {t.name} <span className="muted">{kindWord(t.kind)}</span>
              </th>
              <td className="num">{t.runs}</td>
              <td className="num">{t.rows}</td>
              <td className="num">{t.succeededRows}</td>
              <td className="num">{amount(t.estimatedCostT)}</td>
              <td className="num">{amount(t.actualCostT)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The runs that ended in the chosen period; each opens its run's page. */
export function PeriodRuns(props: {
  period: string
  answer: UsagePeriodRunsView | null
  unitLabel: string
}) {
  const { nav } = useStores()
  // A day is "on Nov 28", a month "in Nov 2026".
  const title = `${props.period.length > 7 ? 'on' : 'in'} ${periodLabel(props.period)}`
  const runs = props.answer?.runs
  return (
    <section className="usage-period" aria-labelledby="usage-period-title" aria-live="polite">
      <h3 id="usage-period-title">Runs that ended {title}</h3>
      {!runs ? (
        <p className="card-sub">Looking for the runs…</p>
      ) : runs.length === 0 ? (
        <p className="card-sub">No run ended {title}.</p>
      ) : (
        <ul className="usage-runs">
          {runs.map((run) => (
            <li key={run.runId} data-run-id={run.runId}>
              <button
                type="button"
                className="link-button"
                onClick={() => nav.getState().openRun(run.runId)}
              >
                {run.name}
              </button>{' '}
              <span className="muted">
                {kindWord(run.targetKind)} {run.targetName} · {statusLabel(run.status)} ·{' '}
                {run.succeededRows} of {run.rows} rows succeeded · ended{' '}
                {formatUnixMoment(run.completedAtUnix, 'date-time')}
              </span>{' '}
              <span className="usage-run-cost">
                {formatAmount(run.actualCostT, props.unitLabel)}
                <span className="muted">
                  {' '}
                  (estimated {formatAmount(run.estimatedCostT, props.unitLabel)})
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
