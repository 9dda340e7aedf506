import { useId, useState } from 'react'
import { comparisonCounts } from '../../shared/format/compare-words'
import type { BridgeErrorInfo, ComparisonView, RunOverview } from '../../shared/bridge'
import { runWords } from '../runs/run-view'
import { runNamed } from './run-named'
import { Card } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { useRuns, useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { CopyablePath } from '../runs/CopyablePath'
import { ComparisonTable } from './ComparisonTable'
import { Checkbox } from '../components/Field'

type Compared =
  | { state: 'idle' }
  | { state: 'comparing' }
  | { state: 'shown'; view: ComparisonView }
  | { state: 'failed'; error: BridgeErrorInfo }

/** "Compare with…": this run beside another of the same environment, row by row. */
export function CompareCard(props: { overview: RunOverview }) {
  const { bridge } = useStores()
  const { environment } = props.overview
  const { runId } = props.overview.detail.run
  const others = useRuns((s) => s.items).filter((r) => r.runId !== runId)
  const [other, setOther] = useState('')
  const [compared, setCompared] = useState<Compared>({ state: 'idle' })
  const pickId = useId()
  const chosen = other ? runNamed(others, other) : (others[0]?.runId ?? '')

  const compare = async () => {
    setCompared({ state: 'comparing' })
    try {
      const view = await bridge.api.compareRuns({ environment, runA: runId, runB: chosen })
      setCompared({ state: 'shown', view })
    } catch (error) {
      setCompared({ state: 'failed', error: errorInfo(error) })
    }
  }

  return (
    <Card
      titleId="compare-title"
      title="Compare with…"
      sub="Another run beside this one: rows matched by what was sent, outputs side by side."
      level={3}
      className="compare-card"
    >
      <div className="compare-pick">
        <label htmlFor={pickId}>Other run</label>
        <input
          id={pickId}
          list={`${pickId}-runs`}
          value={other}
          placeholder="Pick a run"
          spellCheck={false}
          aria-describedby={other && !chosen ? `${pickId}-none` : undefined}
          onChange={(e) => setOther(e.target.value)}
        />
        <datalist id={`${pickId}-runs`}>
          {others.slice(0, 100).map((r) => (
            <option key={r.runId} value={runWords(r)} />
          ))}
        </datalist>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!chosen || compared.state === 'comparing'}
          onClick={() => void compare()}
        >
          {compared.state === 'comparing' ? 'Comparing…' : 'Compare'}
        </button>
      </div>
      {other.trim() && !chosen && (
        <p className="field-hint" id={`${pickId}-none`} role="status">
          No run in the runs list is called “{other.trim()}”. Pick one from the list.
        </p>
      )}
      {compared.state === 'failed' && (
        <ErrorNotice error={compared.error} onRetry={() => void compare()} />
      )}
      {compared.state === 'shown' && (
        <Comparison view={compared.view} sides="A is this run, B the one you chose" />
      )}
    </Card>
  )
}

/** The comparison with its filters and "Save as workbook"; `sides` says which run is A and B. */
export function Comparison(props: { view: ComparisonView; sides: string }) {
  const { bridge } = useStores()
  const { view } = props
  const [onlyDiffering, setOnlyDiffering] = useState(false)
  const [onlyFailedInOne, setOnlyFailedInOne] = useState(false)
  const [saved, setSaved] = useState<
    | { state: 'idle' | 'saving' }
    | { state: 'saved'; path: string }
    | { state: 'failed'; error: BridgeErrorInfo }
  >({ state: 'idle' })
  const rows = view.rows.filter(
    (r) => (!onlyDiffering || r.differs) && (!onlyFailedInOne || r.failedInOne),
  )
  const save = async () => {
    setSaved({ state: 'saving' })
    try {
      const result = await bridge.api.saveComparison({
        environment: view.environment,
        runA: view.a.runId,
        runB: view.b.runId,
      })
      setSaved({ state: 'saved', path: result.path })
    } catch (error) {
      setSaved({ state: 'failed', error: errorInfo(error) })
    }
  }
  const failedInOne = view.rows.filter((r) => r.failedInOne).length
  return (
    <div className="comparison">
      <p className="card-sub" role="status">
        {props.sides}: {comparisonCounts(view.rows)}
        {failedInOne ? `; ${failedInOne} failed in one run only` : ''}.
        {(!view.a.inputsKnown || !view.b.inputsKnown) &&
          ' A run not sent from this computer has its rows matched by position.'}
        {view.notRead > 0 &&
          ` ${view.notRead} outputs were compared by name only (too many to read).`}
      </p>
      <div className="comparison-tools">
        <Checkbox className="check" checked={onlyDiffering} onChange={setOnlyDiffering}>
          Only rows that differ
        </Checkbox>
        <Checkbox className="check" checked={onlyFailedInOne} onChange={setOnlyFailedInOne}>
          Only failed in one
        </Checkbox>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={saved.state === 'saving'}
          onClick={() => void save()}
        >
          {saved.state === 'saving' ? 'Saving…' : 'Save as workbook'}
        </button>
      </div>
      {saved.state === 'saved' && <CopyablePath label="Comparison saved in" path={saved.path} />}
      {saved.state === 'failed' && <ErrorNotice error={saved.error} />}
      <ComparisonTable rows={rows} unitLabel={view.unitLabel} inputNames={view.inputNames ?? {}} />
    </div>
  )
}
