/**
 * Usage: what was spent per day (the last 30) and month (the last 12), on which templates and
 * listings, from the service's runs (every computer's), kept so the screen opens at once and
 * offline; and where this month stands against the monthly limit kept on this computer. The
 * chart library comes with this screen's chunk only (components/lazy-screens.tsx).
 */
import { useState } from 'react'
import type { EnvironmentView, UsageView } from '../../shared/bridge'
import { formatAmount } from '../../shared/format/amounts'
import { formatMoment } from '../../shared/format'
import { Card } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { Fact } from '../components/Fact'
import { useStores } from '../stores/context'
import { downloadBytes } from '../prepare/download'
import { UsageBars, UsageLegend, UsageTable } from '../usage/UsageChart'
import { PeriodRuns, TargetsTable } from '../usage/UsageLists'
import { usePeriodRuns, useUsage } from '../usage/use-usage'
import '../styles/usage.css'

export function UsageScreen(props: { env: EnvironmentView }) {
  const { view, error, reading, refresh } = useUsage(props.env.name)
  return (
    <div className="usage-stack">
      <Card
        titleId="usage-title"
        title="Usage"
        sub={readWords(view, reading)}
        live
        busy={reading}
        tools={
          <button type="button" className="btn btn-secondary" onClick={refresh} disabled={reading}>
            {reading ? 'Reading…' : 'Refresh'}
          </button>
        }
      >
        {error && <ErrorNotice error={error} onRetry={refresh} />}
        {view && <Totals view={view} />}
      </Card>
      {view && <ChartCard view={view} />}
      {view && (
        <Card
          titleId="usage-targets-title"
          title="Per template or listing"
          sub="The last 12 months: rows run and succeeded, and the estimate against what was spent."
        >
          <TargetsTable targets={view.targets} unitLabel={view.unitLabel} />
        </Card>
      )}
    </div>
  )
}

function readWords(view: UsageView | null, reading: boolean): string {
  if (!view) return reading ? 'Reading the service’s runs…' : ''
  const when = view.readAtMs ? formatMoment(new Date(view.readAtMs), 'date-time') : null
  if (view.offline) {
    return when
      ? `The service could not be read just now: these are its runs as last read, on ${when}.`
      : 'The service could not be read, and its runs were never read on this computer.'
  }
  return `From the service’s runs list (every run of yours, from any computer)${when ? `, read ${when}` : ''}.`
}

function Totals(props: { view: UsageView }) {
  const { view } = props
  const { nav } = useStores()
  const amount = (t: number) => formatAmount(t, view.unitLabel)
  const limit = view.monthlyLimit
  return (
    <>
      {view.offline && <p className="usage-offline">{view.offline}</p>}
      <dl className="facts">
        <Fact label="This month" value={amount(view.thisMonthT)} />
        <Fact label="Last month" value={amount(view.lastMonthT)} />
        <Fact
          label="Runs still going (estimate)"
          value={
            view.runningRuns ? `${amount(view.runningEstimateT)} in ${view.runningRuns}` : amount(0)
          }
        />
        <Fact label="Monthly limit" value={limit ? amount(limit.limitT) : 'None'} />
      </dl>
      {limit ? (
        <p
          className={limit.nearly ? 'usage-limit usage-limit-near' : 'usage-limit'}
          role={limit.nearly ? 'status' : undefined}
        >
          {limit.words}
        </p>
      ) : (
        <p className="card-sub">
          No monthly limit is set for this environment.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => nav.getState().show('settings')}
          >
            Set one in Settings
          </button>
        </p>
      )}
    </>
  )
}

function ChartCard(props: { view: UsageView }) {
  const { view } = props
  const [unit, setUnit] = useState<'day' | 'month'>('day')
  const [asTable, setAsTable] = useState(false)
  const { bridge } = useStores()
  const periods = usePeriodRuns(view.environment)
  const chart = unit === 'day' ? view.days : view.months
  const caption =
    unit === 'day'
      ? 'Credits spent per day, the last 30 days'
      : 'Credits spent per month, the last 12 months'
  const saveCsv = async () => {
    const saved = await bridge.api
      .saveUsageCsv({ environment: view.environment, unit })
      .catch(() => null)
    if (saved?.kind === 'bytes') downloadBytes(document, saved)
  }
  return (
    <Card
      titleId="usage-chart-title"
      title={unit === 'day' ? 'The last 30 days' : 'The last 12 months'}
      sub={`Spent per ${unit}, by template or listing. Choose a bar to see its runs.`}
      className="usage-chart-card"
      tools={
        <div className="usage-tools">
          <div className="segmented" role="group" aria-label="Period">
            {(['day', 'month'] as const).map((u) => (
              <button
                key={u}
                type="button"
                className={`segment${unit === u ? ' segment-on' : ''}`}
                aria-pressed={unit === u}
                onClick={() => {
                  setUnit(u)
                  periods.choose(null)
                }}
              >
                {u === 'day' ? 'Days' : 'Months'}
              </button>
            ))}
          </div>
          <button
            type="button"
            className="btn btn-secondary"
            aria-pressed={asTable}
            onClick={() => setAsTable(!asTable)}
          >
            Table
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => void saveCsv()}>
            Save as CSV
          </button>
        </div>
      }
    >
      {asTable ? (
        <UsageTable chart={chart} unitLabel={view.unitLabel} caption={caption} />
      ) : (
        <>
          <UsageBars
            chart={chart}
            unitLabel={view.unitLabel}
            chosen={periods.period}
            onChoose={periods.choose}
          />
          <UsageLegend chart={chart} />
        </>
      )}
      {periods.period && (
        <PeriodRuns period={periods.period} answer={periods.runs} unitLabel={view.unitLabel} />
      )}
    </Card>
  )
}
