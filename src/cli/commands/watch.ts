/** `runs watch`, and the following of a run to its end that `--watch` on the paid commands shares. */
import type { Connection, Engine } from '../../core/engine'
import { followRunToEnd } from '../../core/flows/watch/follow-run'
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract'
import { statusLabel } from '../../shared/format'
import type { Command, CommandContext } from '../command'
import { EXIT, UsageError } from '../errors'
import { saveWatchedOutputs } from './downloads'
import { describeRun, numberingOf } from './runs'

/** Follows a run to its end with progress on stderr; returns the final detail. */
export async function watchToEnd(
  ctx: CommandContext,
  engine: Engine,
  connection: Connection,
  runId: string,
) {
  const bar = ctx.out.bar(runId, 'rows')
  let detail
  try {
    detail = await followRunToEnd(engine, connection, runId, {
      signal: ctx.signal,
      onProgress: (run: RunSummary) => {
        const finished = run.completedTasks + run.failedTasks + run.cancelledTasks
        const failed = run.failedTasks ? `, ${run.failedTasks} failed` : ''
        bar.update(finished, run.totalTasks, `${statusLabel(run.status)}${failed}`)
      },
      onError: (error) =>
        ctx.out.note(
          `still watching; the last look failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      stop: ctx.interrupted.then(
        () =>
          new UsageError(
            'stopped watching (the run goes on; see it with `skill-runner runs show`).',
            '',
          ),
      ),
    })
  } finally {
    ctx.out.endProgress()
  }
  await saveWatchedOutputs(ctx, engine, connection, detail)
  return detail
}

/** A run that ended with every row done is a yes; anything else is a no. */
export function exitCodeOfEndedRun(run: RunSummary): number {
  return run.status === 'succeeded' && run.failedTasks === 0 ? EXIT.ok : EXIT.no
}

export const runsWatch: Command = {
  name: 'runs watch',
  summary: 'Follow a run until it ends, with progress on stderr; prints the final run detail.',
  usage: 'runs watch RUN',
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
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
  },
}
