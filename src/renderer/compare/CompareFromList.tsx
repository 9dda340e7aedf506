import { useCallback, useEffect, useMemo, useState } from 'react'
import type { BridgeErrorInfo, ComparisonView } from '../../shared/bridge'
import { CardHead } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { Loading, onDemand } from '../components/on-demand'

/** The comparison's table comes as a chunk of its own, fetched when the list starts choosing. */
const Comparison = onDemand(async () => (await import('./CompareCard')).Comparison)

/** A comparison is of two runs: a third box stays closed until one of the two is cleared. */
const PAIR = 2

/** The runs list's "Compare runs" mode: whether it is on and which runs are ticked, in order. */
export interface CompareChoice {
  choosing: boolean
  chosen: readonly string[]
  start(): void
  stop(): void
  /** Stable across renders, so the list's memoized rows are not drawn again for it. */
  toggle(runId: string): void
}

export function useCompareChoice(): CompareChoice {
  const [choosing, setChoosing] = useState(false)
  const [chosen, setChosen] = useState<readonly string[]>([])
  const toggle = useCallback(
    (runId: string) =>
      setChosen((now) =>
        now.includes(runId)
          ? now.filter((id) => id !== runId)
          : now.length < PAIR
            ? [...now, runId]
            : now,
      ),
    [],
  )
  const start = useCallback(() => setChoosing(true), [])
  const stop = useCallback(() => {
    setChoosing(false)
    setChosen([])
  }, [])
  return useMemo(
    () => ({ choosing, chosen, start, stop, toggle }),
    [choosing, chosen, start, stop, toggle],
  )
}

/** A run's box in the list, or whether it is closed: null when the list is not choosing. */
export function choiceOf(choice: CompareChoice, runId: string): 'on' | 'off' | 'full' | null {
  if (!choice.choosing) return null
  if (choice.chosen.includes(runId)) return 'on'
  return choice.chosen.length >= PAIR ? 'full' : 'off'
}

type Compared =
  | { state: 'idle' | 'comparing' }
  | { state: 'shown'; view: ComparisonView; pair: string }
  | { state: 'failed'; error: BridgeErrorInfo }

/**
 * Above the runs list while choosing: how many runs are ticked, "Compare 2 runs", and then the
 * comparison itself (the same one a run's page shows), the first run ticked as A.
 */
export function CompareChooser(props: { environment: string; choice: CompareChoice }) {
  const { bridge } = useStores()
  const { choice, environment } = props
  const [compared, setCompared] = useState<Compared>({ state: 'idle' })
  useEffect(() => {
    if (choice.choosing) Comparison.preload()
  }, [choice.choosing])
  if (!choice.choosing) return null
  const [runA, runB] = choice.chosen
  const pair = choice.chosen.join(' ')
  // A comparison of runs since unticked is not shown: "Compare 2 runs" asks again.
  const shown = compared.state === 'shown' && compared.pair === pair ? compared.view : null
  const compare = async () => {
    if (!runA || !runB) return
    setCompared({ state: 'comparing' })
    try {
      setCompared({
        state: 'shown',
        view: await bridge.api.compareRuns({ environment, runA, runB }),
        pair,
      })
    } catch (error) {
      setCompared({ state: 'failed', error: errorInfo(error) })
    }
  }
  const close = () => {
    setCompared({ state: 'idle' })
    choice.stop()
  }
  return (
    <section className="compare-chooser" aria-labelledby="compare-chooser-title">
      <CardHead
        titleId="compare-chooser-title"
        title="Compare two runs"
        level={3}
        live
        sub={
          choice.chosen.length < PAIR
            ? `Tick two runs in the list below (${choice.chosen.length} of 2 ticked).`
            : 'Two runs ticked. Untick one to choose another.'
        }
      >
        <div className="toolbar">
          <button
            type="button"
            className="btn btn-primary"
            disabled={choice.chosen.length < PAIR || compared.state === 'comparing'}
            onClick={() => void compare()}
          >
            {compared.state === 'comparing' ? 'Comparing…' : 'Compare 2 runs'}
          </button>
          <button type="button" className="btn btn-quiet" onClick={close}>
            {shown ? 'Close the comparison' : 'Stop comparing'}
          </button>
        </div>
      </CardHead>
      {compared.state === 'failed' && (
        <ErrorNotice error={compared.error} onRetry={() => void compare()} />
      )}
      {shown && (
        <Loading>
          <Comparison view={shown} sides="A is the run ticked first, B the second" />
        </Loading>
      )}
    </section>
  )
}
