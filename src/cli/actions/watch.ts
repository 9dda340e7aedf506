/** `runs watch`, and the following of a run to its end that `--watch` on the paid commands shares. */
import type { Connection } from '../../core/engine'
import { earlierPaceSamples, type EarlierPaceServices } from '../../core/flows/watch/earlier-paces'
import { watchRunToEnd, type WatchServices } from '../../core/flows/watch/watch-run'
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract'
import {
  earlierPace,
  finishedRows,
  markRows,
  NO_ROW_MARKS,
  runPace,
  stalledAdvice,
  statusLabel,
  unreachableText,
  type EarlierPace,
  type PaceSample,
  type RowMarks,
  type RunPace,
} from '../../shared/format'
import type { Outage } from '../../core/flows/watch/run-watcher'
import { integerOption, type CommandContext, type ParsedArgs } from '../command'
import { EXIT, UsageError } from '../errors'
import { saveWatchedOutputs, type SaveWatchedServices } from './downloads'
import { describeRun, numberingOf } from './runs'
import { defined } from '../../shared/defined'

/** What following a run to its end uses of the engine: its pace, its watch, its outputs' save. */
export type WatchToEndServices = EarlierPaceServices & WatchServices & SaveWatchedServices

/**
 * Follows a run to its end with progress on stderr; returns the final detail. The bar says how
 * long is left; a stall and an outage of the service are said on their own lines, and the watch
 * goes on through both until the run ends or the user stops it.
 */
export async function watchToEnd(
  ctx: CommandContext,
  engine: WatchToEndServices,
  connection: Connection,
  runId: string,
) {
  const bar = ctx.out.bar(runId, 'rows')
  const pace = paceNotes(ctx, (run) =>
    earlierPaceSamples(engine, connection.historyKey, {
      templateKeys: run.market?.listingId ? [] : [run.templateKey],
      listingIds: run.market?.listingId ? [run.market.listingId] : [],
    }),
  )
  const outageRetryMs = integerOption(
    ctx.env.SKILL_RUNNER_RETRY_MS,
    'SKILL_RUNNER_RETRY_MS',
    100,
    600_000,
  )
  let detail
  try {
    detail = await watchRunToEnd(engine, connection, runId, {
      signal: ctx.signal,
      ...defined({ outageRetryMs }),
      onProgress: (run, recent) => {
        const finished = finishedRows(run)
        const failed = run.failedTasks ? `, ${run.failedTasks} failed` : ''
        const left = pace.seen(run, recent)
        bar.update(finished, run.totalTasks, `${statusLabel(run.status)}${failed}`, left)
      },
      onUnreachable: (outage) => pace.unreachable(outage),
      onReachable: () => pace.reachable(),
      stop: ctx.interrupted.then(
        () =>
          new UsageError(
            'stopped watching (the run goes on; see it with `skill-runner runs show`).',
            '',
          ),
      ),
    })
  } finally {
    pace.stop()
    ctx.out.endProgress()
  }
  await saveWatchedOutputs(ctx, engine, connection, detail)
  return detail
}

/**
 * The lines a watch writes beside its bar: a stall (looked for every 15 s, since nothing else
 * happens while a run stalls), its end, and an outage of the service (once, then once it is back).
 * Earlier runs of the same template or listing in this computer's history are read once.
 */
function paceNotes(ctx: CommandContext, history: (run: RunSummary) => PaceSample[]) {
  let kept: PaceSample[] | null = null
  let last: RunSummary | null = null
  let earlier: EarlierPace | null = null
  let marks: RowMarks = NO_ROW_MARKS
  let stalled = false
  let away = false
  /** Says a stall once, and the run moving again once. */
  const judge = (now: RunPace) => {
    if (away) return
    if (now.state === 'stalled' && !stalled) {
      const advice = stalledAdvice(now)
      ctx.out.note(`${advice.title}. ${advice.body}`)
    }
    if (now.state !== 'stalled' && stalled) ctx.out.note('The run is moving again.')
    stalled = now.state === 'stalled'
  }
  const check = () => {
    if (last) judge(runPace(last, ctx.now(), earlier, marks))
  }
  const timer = setInterval(check, 15_000)
  timer.unref()
  return {
    /** Records the run's news; returns the time left in words ('' when unknown). */
    seen(run: RunSummary, recent: readonly RunSummary[]): string {
      last = run
      marks = markRows(marks, run)
      kept ??= history(run)
      earlier = earlierPace(run, recent, kept) ?? earlier
      const pace = runPace(run, ctx.now(), earlier, marks)
      judge(pace)
      return pace.leftText
    },
    unreachable(outage: Outage) {
      if (!away)
        ctx.out.note(`${unreachableText(outage)} (Ctrl-C stops watching; the run goes on).`)
      away = true
    },
    reachable() {
      if (away) ctx.out.note('The service answers again; still watching.')
      away = false
    },
    stop: () => clearInterval(timer),
  }
}

/** A run that ended with every row done is a yes; anything else is a no. */
export function exitCodeOfEndedRun(run: RunSummary): number {
  return run.status === 'succeeded' && run.failedTasks === 0 ? EXIT.ok : EXIT.no
}

export async function runsWatch(ctx: CommandContext, args: ParsedArgs) {
  const { engine, connection } = await ctx.session()
  const runId = args.positionals[0]!
  const first = await connection.client.run(runId, { signal: ctx.signal })
  const detail = isTerminalStatus(first.run.status)
    ? first
    : await watchToEnd(ctx, engine, connection, runId)
  ctx.out.result(detail, () =>
    describeRun(detail, connection.unitLabel, numberingOf(engine, connection, detail)),
  )
  return exitCodeOfEndedRun(detail.run)
}
