import { Details } from '../components/CardParts'
import { useMemo, type ReactNode } from 'react'
import type { RunOverview } from '../../shared/bridge'
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract/statuses'
import {
  earlierPace,
  formatMoment,
  formatUnixTime,
  runDoneFraction,
  runProgressText,
  unreachableText,
} from '../../shared/format'
import { Fact } from '../components/Fact'
import { ProgressBar } from '../components/ProgressBar'
import { useNow } from '../components/RunsTable'
import { StatusBadge } from '../components/StatusBadge'
import { useRunSummaries, useRuns, useStores } from '../stores/context'
import { rowMarksOf } from '../stores/run-summaries-store'
import { PaceNote, StalledNotice } from './RunPace'
import { costLines, runDuration, runWords } from './run-view'
import { useEarlierPaces } from './use-earlier-paces'
import { PartOfBatch } from './run-batch'

/** The head of a run's page: name, status, progress, timing and cost, and related runs. */
export function RunSummaryCard(props: { overview: RunOverview; back: ReactNode }) {
  const { overview } = props
  const { run } = overview.detail
  const listed = useRuns((s) => s.items)
  const runs = useMemo(() => [run], [run])
  const kept = useEarlierPaces(overview.environment, runs)
  const earlier = useMemo(() => earlierPace(run, listed, kept), [run, listed, kept])
  const marks = useRunSummaries((s) => rowMarksOf(s, overview.environment, run.runId))
  // While the service cannot be reached, the run is shown as last seen: its clock stops there.
  const unreachable = useRuns((s) => s.unreachable)
  const ticking = useNow(5000)
  const nowMs = unreachable ? unreachable.sinceMs : ticking
  const name = runWords({ ...run, inputFilename: overview.inputFilename })
  return (
    <section className="card run-detail" aria-labelledby="run-title">
      {props.back}
      <div className="run-title-row">
        <h2 id="run-title">{name}</h2>
        <StatusBadge status={run.status} run={run} />
        {!isTerminalStatus(run.status) &&
          (unreachable ? (
            <span className="last-seen" title={unreachableText(unreachable)}>
              Last seen {formatMoment(new Date(unreachable.sinceMs), 'time')}
            </span>
          ) : (
            <span className="live-dot">Live</span>
          ))}
      </div>
      <p className="card-sub">
        {[
          run.templateName || overview.detail.market?.skillName || run.templateKey,
          overview.inputFilename,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <div className="run-progress">
        <span className="progress-text" aria-live="polite">
          {runProgressText(run)}
        </span>
        <ProgressBar label={`Progress of ${name}`} fraction={runDoneFraction(run)} large />
        {!unreachable && <PaceNote run={run} earlier={earlier} marks={marks} nowMs={nowMs} />}
      </div>
      {unreachable ? (
        <div className="offline-banner run-offline" role="status">
          <strong>{unreachableText(unreachable)}.</strong> This run is shown as last seen; it
          updates by itself when the service answers again.
        </div>
      ) : (
        <StalledNotice run={run} earlier={earlier} marks={marks} nowMs={nowMs} />
      )}
      <RunFacts overview={overview} run={run} frozenAtMs={unreachable?.sinceMs ?? null} />
      <RelatedRuns overview={overview} />
      <PartOfBatch runId={run.runId} />
      <Details>
        Run ID <code>{run.runId}</code>
        {run.templateKey ? (
          <>
            {' '}
            · template <code>{run.templateKey}</code>
          </>
        ) : null}
        {overview.callbackUrl && (
          <span className="detail-line" data-testid="run-callback">
            When it ends, the service was asked to call <code>{overview.callbackUrl}</code>
          </span>
        )}
      </Details>
      {!overview.fromThisDevice && (
        <p className="card-sub">
          This run was not submitted from this computer: its rows are named by their position in the
          submitted rows.
        </p>
      )}
    </section>
  )
}

/** Rows, timing and cost, as a list of facts. */
function RunFacts(props: { overview: RunOverview; run: RunSummary; frozenAtMs: number | null }) {
  const ticking = useNow(1000)
  const now = props.frozenAtMs ?? ticking
  const { run } = props
  const live = !isTerminalStatus(run.status)
  return (
    <dl className="facts">
      <Fact label="Rows" value={String(run.totalTasks)} />
      <Fact label="Succeeded" value={String(run.completedTasks)} />
      <Fact label="Failed" value={String(run.failedTasks)} tone={run.failedTasks ? 'bad' : ''} />
      {run.cancelledTasks > 0 && <Fact label="Cancelled" value={String(run.cancelledTasks)} />}
      <Fact label="Submitted" value={formatUnixTime(run.createdAtUnix, now)} />
      <Fact
        label="Finished"
        value={run.completedAtUnix ? formatUnixTime(run.completedAtUnix, now) : '—'}
      />
      <Fact label={live ? 'Running for' : 'Took'} value={runDuration(run, now)} />
      {costLines(props.overview).map((line) => (
        <Fact key={line.label} label={line.label} value={line.value} />
      ))}
    </dl>
  )
}

/**
 * How this run is linked to others, as links named in words: the run whose rows it sent again
 * and the runs that sent its rows again (a retry of failed rows and a redo of chosen ones alike),
 * and apart from those, the run whose set-aside rows it sent once fixed and its own follow-ups.
 */
function RelatedRuns(props: { overview: RunOverview }) {
  const { retryOfRunId, retriedBy, followUpOfRunId, followUps = [] } = props.overview
  if (!retryOfRunId && retriedBy.length === 0 && !followUpOfRunId && followUps.length === 0)
    return null
  return (
    <p className="run-links">
      {retryOfRunId && (
        <>
          Sends again rows of <RunLink runId={retryOfRunId}>an earlier run</RunLink>.{' '}
        </>
      )}
      {followUpOfRunId && (
        <>
          A follow-up: sends the rows set aside from{' '}
          <RunLink runId={followUpOfRunId}>an earlier run</RunLink>, fixed.{' '}
        </>
      )}
      <SentAgainIn runIds={retriedBy} />
      {followUps.map((id) => (
        <span key={id}>
          Rows set aside, fixed and sent in <RunLink runId={id}>a follow-up</RunLink>.{' '}
        </span>
      ))}
    </p>
  )
}

const ORDINALS = ['the first', 'the second', 'the third']

/**
 * The later runs that sent rows of this one again, said in one sentence however many there are:
 * one link for one run, else one link per run named by its order.
 */
function SentAgainIn(props: { runIds: string[] }) {
  const ids = [...new Set(props.runIds)]
  if (ids.length === 0) return null
  if (ids.length === 1) {
    return (
      <>
        Rows sent again in <RunLink runId={ids[0]!}>a later run</RunLink>.{' '}
      </>
    )
  }
  return (
    <>
      Rows sent again in {ids.length} later runs:{' '}
      {ids.map((id, i) => (
        <span key={id}>
          <RunLink runId={id}>{ORDINALS[i] ?? `run ${i + 1}`}</RunLink>
          {i < ids.length - 1 ? ', ' : '. '}
        </span>
      ))}
    </>
  )
}

/** A link to another run, named in words; its id stays on the link for support and tests. */
function RunLink(props: { runId: string; children: string }) {
  const { nav } = useStores()
  return (
    <button
      type="button"
      className="link-button"
      data-run-id={props.runId}
      onClick={() => nav.getState().openRun(props.runId)}
    >
      {props.children}
    </button>
  )
}
