import { runWords } from './run-view'
import { startTransition, useEffect, useMemo, useState } from 'react'
import type { EnvironmentView, RunOverview } from '../../shared/bridge'
import { BackLink } from '../components/BackLink'
import { ErrorNotice } from '../components/ErrorNotice'
import { useRunSummaries, useStores, useFields } from '../stores/context'
import { shownOverview } from '../stores/run-detail/run-detail-store'
import { summaryOf } from '../stores/run-summaries-store'
import { Loading, onDemand } from '../components/on-demand'
import { ArtifactsCard } from './ArtifactsCard'
import { OutputsCard } from './OutputsCard'
import { RestOfPilotCard } from './RestOfPilotCard'
import { RowsToFixCard } from './RowsToFixCard'
import { RunSummaryCard } from './RunSummaryCard'
import { StoppingCard } from './StoppingCard'
import { TasksCard } from './TasksCard'
import { RunBatch, useRunBatchAnswer } from './run-batch'

/** Comparing runs is opened from here only: its code comes when a run's page first shows. */
const CompareCard = onDemand(async () => (await import('../compare/CompareCard')).CompareCard)

/** One run: progress, timing, cost, its rows with their errors, its outputs and what to do. */
export function RunDetail(props: { env: EnvironmentView; runId: string }) {
  const { runDetail, nav } = useStores()
  const { overview: read, loading, error } = useFields('runDetail', 'overview', 'loading', 'error')
  const { env, runId } = props
  // The run's newest summary is the shared cache's: the same the runs list shows.
  const summary = useRunSummaries((s) => summaryOf(s, env.name, runId))
  const overview = useMemo(() => shownOverview(read, summary), [read, summary])
  const batch = useRunBatchAnswer(overview)

  useEffect(() => {
    void runDetail.getState().open(env.name, runId)
    return () => runDetail.getState().close()
  }, [runDetail, env.name, runId])

  const back = <BackLink onBack={() => nav.getState().closeRun()}>← All runs</BackLink>
  const notice = error && (
    <ErrorNotice error={error} onRetry={() => void runDetail.getState().refresh()} />
  )
  if (!overview) {
    return (
      <section className="card run-detail" aria-labelledby="run-title">
        {back}
        <h2 id="run-title">{summary ? runWords(summary) : 'Run'}</h2>
        {loading && (
          <p className="card-sub" role="status">
            Loading the run…
          </p>
        )}
        {notice}
      </section>
    )
  }
  return (
    <RunBatch.Provider value={batch}>
      <div className="run-detail-stack">
        <RunSummaryCard overview={overview} back={back} />
        {notice}
        <StoppingCard overview={overview} />
        <RestOfPilotCard overview={overview} />
        <RowsToFixCard overview={overview} />
        <LowerCards overview={overview} />
      </div>
    </RunBatch.Provider>
  )
}

/**
 * The run's outputs, rows and comparison, drawn in a transition after the cards above them: the
 * page of a 10,000-row run took one task of 49 ms of script to open (trace of the big-run bench,
 * BIG_RUN_OPEN_TRACE), most of it these tables' first rows. As a transition, React draws them in
 * slices that leave the page free between, while the run's progress already shows.
 */
function LowerCards(props: { overview: RunOverview }) {
  const [shown, setShown] = useState(false)
  useEffect(() => startTransition(() => setShown(true)), [])
  if (!shown) return null
  const { overview } = props
  return (
    <>
      <OutputsCard overview={overview} />
      <TasksCard overview={overview} />
      <ArtifactsCard overview={overview} />
      <Loading>
        <CompareCard overview={overview} />
      </Loading>
    </>
  )
}
