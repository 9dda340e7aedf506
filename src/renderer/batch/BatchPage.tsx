import { useEffect } from 'react'
import type { BatchRowFilter, BatchView, EnvironmentView } from '../../shared/bridge'
import { plural } from '../../shared/format/amounts'
import { BackLink } from '../components/BackLink'
import { CardHead } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { Fact } from '../components/Fact'
import { ShowChoice } from '../components/ShowChoice'
import { useFields, useStores } from '../stores/context'
import { BatchRows } from './BatchRows'
import { BatchSend } from './BatchSend'

/** The filters, in the order offered, each with the count it shows. */
const FILTERS: readonly {
  filter: BatchRowFilter
  label: string
  count: (b: BatchView) => number
}[] = [
  { filter: 'all', label: 'All rows', count: (b) => b.counts.rows },
  { filter: 'not-sent', label: 'Not sent', count: (b) => b.counts.notSent },
  { filter: 'set-aside', label: 'Set aside', count: (b) => b.counts.setAside },
  { filter: 'pending', label: 'Running', count: (b) => b.counts.pending },
  { filter: 'failed', label: 'Failed', count: (b) => b.counts.failed },
  { filter: 'succeeded', label: 'Succeeded', count: (b) => b.counts.succeeded },
  { filter: 'sent-again', label: 'Sent again', count: (b) => b.counts.sentAgain },
]

/**
 * A buyer's sheet across every run made from it: the summary and counts, then the sheet row by
 * row (its state, the output kept, the run it came from), filtered by state. Chosen rows are
 * sent through the usual confirmation; the page then shows them running without a reload.
 */
export function BatchPage(props: { env: EnvironmentView; runId: string }) {
  const { batch: store, nav } = useStores()
  const { batch, none, loading, error } = useFields('batch', 'batch', 'none', 'loading', 'error')
  const { env, runId } = props

  useEffect(() => {
    void store.getState().open(env.name, runId)
    return () => store.getState().close()
  }, [store, env.name, runId])

  const back = <BackLink onBack={() => nav.getState().closeBatch()}>← Back to the run</BackLink>
  const notice = error && (
    <ErrorNotice error={error} onRetry={() => void store.getState().refresh()} />
  )
  if (!batch)
    return (
      <section className="card run-detail" aria-labelledby="batch-title">
        {back}
        <h2 id="batch-title">Sheet</h2>
        <p className="card-sub" role="status">
          {loading
            ? 'Loading the sheet…'
            : none
              ? 'This run was not sent from a sheet on this computer, so its rows are on the run’s page only.'
              : ''}
        </p>
        {notice}
      </section>
    )
  return (
    <section
      className="card runs batch-page"
      aria-labelledby="batch-title"
      data-batch-id={batch.batchId}
    >
      {back}
      <CardHead
        titleId="batch-title"
        title={batch.fileName || 'Sheet'}
        sub={sheetWords(batch)}
        live
      >
        <FilterChoice batch={batch} />
      </CardHead>
      <p className="batch-summary" data-testid="batch-summary">
        {batch.summary}
      </p>
      <BatchCounts batch={batch} />
      {batch.stale && (
        <p className="prep-note" role="status">
          Some runs could not be asked about just now: their rows show what was last seen.
        </p>
      )}
      {notice}
      <BatchSend batch={batch} />
      <BatchRows batch={batch} />
    </section>
  )
}

/** What was sent where, in words: the template and sheet, and how many runs. */
function sheetWords(batch: BatchView): string {
  return [
    batch.targetName || (batch.targetKind === 'listing' ? 'A listing' : 'A template'),
    batch.sheet ? `sheet “${batch.sheet}”` : '',
    `sent in ${plural(batch.runs.length, 'run')}`,
  ]
    .filter(Boolean)
    .join(' · ')
}

function BatchCounts({ batch }: { batch: BatchView }) {
  const c = batch.counts
  return (
    <dl className="facts batch-counts">
      <Fact label="Rows" value={c.rows.toLocaleString('en-US')} />
      <Fact label="Succeeded" value={c.succeeded.toLocaleString('en-US')} tone="good" />
      <Fact
        label="Failed"
        value={c.failed.toLocaleString('en-US')}
        {...(c.failed ? { tone: 'bad' } : {})}
      />
      {c.pending > 0 && <Fact label="Running" value={c.pending.toLocaleString('en-US')} />}
      <Fact label="Set aside" value={c.setAside.toLocaleString('en-US')} />
      <Fact label="Not sent" value={c.notSent.toLocaleString('en-US')} />
      <Fact label="Sent again" value={c.sentAgain.toLocaleString('en-US')} />
    </dl>
  )
}

/** Which rows to show, by state, each with its count. */
function FilterChoice({ batch }: { batch: BatchView }) {
  const { batch: store } = useStores()
  const { filter } = useFields('batch', 'filter')
  return (
    <div className="toolbar">
      <ShowChoice
        value={filter}
        options={FILTERS.map((f) => ({
          value: f.filter,
          label: `${f.label} (${f.count(batch).toLocaleString('en-US')})`,
        }))}
        onChange={(value) => void store.getState().setFilter(value)}
      />
    </div>
  )
}
