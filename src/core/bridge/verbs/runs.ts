/**
 * The runs list and a run's detail: pages of runs (watched live while any is active), one run
 * with what this computer knows of it, and an artifact's preview.
 */
import type { RunDetail, RunList, RunSummary } from '../../../shared/contract'
import type { RunOverview } from '../../../shared/bridge'
import type { Engine } from '../../engine'
import { EngineError } from '../../errors'
import { previewArtifact } from '../../flows/downloads/artifact-preview'
import { isOutage } from '../../flows/watch/run-watcher'
import { savedResultsWorkbook } from '../../flows/results/results'
import { keptSetAsides } from '../../flows/spend/set-aside'
import { rowNumberingOf } from '../../flows/spend/submissions'
import { readStoredRun, WINDOWED_FROM } from '../../flows/watch/stored-detail'
import type { RunsSource } from '../run-watch'
import type { Connects, VerbContext, Verbs } from './context'

/** What reading runs uses of the engine: each look is recorded in the history. */
type SourceServices = Connects &
  Pick<Engine, 'recordRuns' | 'runRows' | 'environments' | 'submissions'>
/** What a run's page uses of the engine besides the runs source. */
type RunServices = Connects & Pick<Engine, 'runRows' | 'submissions' | 'history' | 'home'>

/**
 * Runs whose summary names no input file get the one this computer sent them from (the service
 * is not told file names); others are returned as they are.
 */
function withLocalFileNames(
  engine: Pick<Engine, 'submissions'>,
  historyKey: string,
  runs: RunSummary[],
): RunSummary[] {
  const unnamed = runs.filter((run) => !run.inputFilename).map((run) => run.runId)
  if (unnamed.length === 0) return runs
  const names = engine.submissions.inputFilenames(historyKey, unnamed)
  if (names.size === 0) return runs
  return runs.map((run) =>
    names.has(run.runId) ? { ...run, inputFilename: names.get(run.runId)! } : run,
  )
}

/** Runs as the page reads them, recorded in the history as they are seen. */
export function runsSource(engine: SourceServices): RunsSource {
  return {
    async listRuns(environment, query): Promise<RunList> {
      const connection = await engine.connect({ env: environment })
      const page = await connection.client.listRuns(query)
      engine.recordRuns(connection.historyKey, page.items)
      // The runs list searches by input file: name the files of runs submitted from here.
      return { ...page, items: withLocalFileNames(engine, connection.historyKey, page.items) }
    },
    async getRun(environment, runId): Promise<RunDetail> {
      const connection = await engine.connect({ env: environment })
      const detail = await connection.client.run(runId)
      // The history watches its runs to their end state and cost.
      engine.recordRuns(connection.historyKey, [detail.run])
      return detail
    },
    async readRun(environment, runId, open) {
      const connection = await engine.connect({ env: environment })
      const head = await connection.client.readRun(runId, open)
      engine.recordRuns(connection.historyKey, [head.run])
      return head
    },
    async storeRun(environment, runId, keepUpTo) {
      const connection = await engine.connect({ env: environment })
      const { historyKey } = connection
      const read = await readStoredRun(connection.client, engine.runRows, {
        historyKey,
        runId,
        keepUpTo,
      })
      engine.recordRuns(historyKey, [read.head.run])
      return read
    },
    unitLabel: (environment) => engine.environments.find(environment)?.unitLabel ?? 'credits',
    acceptedSubmissionsMark: () => engine.submissions.acceptedMark(),
  }
}

/** Where this run's outputs were saved on this computer, and how many files. */
export function savedOutputs(engine: Pick<Engine, 'history'>, historyKey: string, runId: string) {
  const [saved] = engine.history.savedOutputsOf(historyKey, [runId])
  return { folder: saved?.folder ?? '', files: saved?.files ?? 0 }
}

/**
 * A run as its page shows it. Its detail is read into the history as it arrives: a small run's
 * comes back whole, a big one's as its counts, its rows then read a window at a time.
 */
async function runOverview(
  ctx: VerbContext<RunServices>,
  source: RunsSource,
  environment: string,
  runId: string,
): Promise<RunOverview> {
  const { engine } = ctx
  const connection = await engine.connect({ env: environment })
  const read = await source.storeRun(environment, runId, ctx.options.windowedFrom ?? WINDOWED_FROM)
  const detail = read.detail ?? { ...read.head, tasks: [], artifacts: [] }
  // Its rows stay in the journal: a part of 10,000 rows took the engine's thread 0.4 s to parse.
  const submission = engine.submissions.sheetOfRun(connection.historyKey, runId)
  const saved = savedOutputs(engine, connection.historyKey, runId)
  const followUps = engine.submissions.followUpsOf(connection.historyKey, runId)
  const numbering = rowNumberingOf(submission)
  const rowNumbers = numbering?.source === 'spreadsheet' ? numbering.numbers : []
  const aside = (await keptSetAsides(engine.home)).get(runId)
  return {
    environment: connection.name,
    unitLabel: connection.unitLabel,
    detail,
    ...(read.detail ? {} : { rows: read.counts }),
    fromThisDevice: submission !== null,
    inputFilename: submission?.inputFilename || detail.run.inputFilename,
    rowNumbers: rowNumbers.length > 0 ? [...rowNumbers] : null,
    // A follow-up (set-aside rows sent once fixed) is linked as such, never as a retry.
    retryOfRunId: submission?.followUpOfRunId ? '' : (submission?.retryOfRunId ?? ''),
    retriedBy: engine.history
      .retriedBy(connection.historyKey, runId)
      .filter((id) => !followUps.includes(id)),
    ...(submission?.followUpOfRunId ? { followUpOfRunId: submission.followUpOfRunId } : {}),
    ...(submission?.batchId ? { batchId: submission.batchId } : {}),
    ...(followUps.length > 0 ? { followUps } : {}),
    savedFolder: saved.folder,
    savedFiles: saved.files,
    resultsWorkbook: await savedResultsWorkbook(
      ctx.settings.read().outputsFolder,
      runId,
      detail.run,
    ),
    ...(aside ? { setAsideRows: aside.rows } : {}),
    ...(submission?.callbackUrl ? { callbackUrl: submission.callbackUrl } : {}),
  }
}

export function runVerbs(
  ctx: VerbContext<RunServices>,
  source: RunsSource,
): Verbs<
  | 'listRuns'
  | 'getRun'
  | 'watchRuns'
  | 'unwatchRuns'
  | 'refreshRuns'
  | 'watchRun'
  | 'unwatchRun'
  | 'resendRunDetail'
  | 'getRunOverview'
  | 'previewArtifact'
> {
  const { runWatch } = ctx
  // A look of the list or a run's page that finds the service away is said at once, everywhere.
  const told = <T>(environment: string, work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      if (isOutage(error)) runWatch.serviceAway(environment)
      throw error
    })
  return {
    async listRuns(args) {
      const page = await told(
        args.environment,
        source.listRuns(args.environment, {
          status: args.status,
          pageSize: args.pageSize,
          pageToken: args.pageToken,
        }),
      )
      // Which of them have their outputs saved here, as History and a run's page say it.
      const { historyKey } = await ctx.engine.connect({ env: args.environment })
      const runIds = page.items.map((run) => run.runId)
      return {
        environment: args.environment,
        ...page,
        saved: ctx.engine.history.savedOutputsOf(historyKey, runIds),
      }
    },
    getRun: (args) => told(args.environment, source.getRun(args.environment, args.runId)),
    watchRuns: (args) => runWatch.watch(args.environment),
    async unwatchRuns(args) {
      runWatch.unwatch(args.environment)
      return null
    },
    refreshRuns: (args) => runWatch.refresh(args.environment),
    async watchRun(args) {
      runWatch.watchRun(args.environment, args.runId)
      return null
    },
    async unwatchRun(args) {
      runWatch.unwatchRun(args.environment, args.runId)
      return null
    },
    async resendRunDetail(args) {
      runWatch.resendRunDetail(args.environment, args.runId)
      return null
    },
    getRunOverview: (args) =>
      told(args.environment, runOverview(ctx, source, args.environment, args.runId)),
    async previewArtifact(args) {
      const connection = await ctx.engine.connect({ env: args.environment })
      // As last read (a big run's page never holds its outputs), else from the service.
      const artifact =
        ctx.engine.runRows.output(connection.historyKey, args.runId, args.artifactId) ??
        (await connection.client.run(args.runId)).artifacts.find(
          (a) => a.artifactId === args.artifactId,
        )
      if (!artifact)
        throw new EngineError(
          'not-found',
          `Run ${args.runId} has no output ${args.artifactId}.`,
          'Open the run again; its outputs may have changed.',
        )
      return previewArtifact(connection.client, artifact)
    },
  }
}

/** A big run's rows and outputs a window at a time, from what the engine stored of it. */
export function runWindowVerbs(
  ctx: VerbContext<Connects & Pick<Engine, 'runRows'>>,
): Verbs<'getRunRows' | 'getRunOutputs'> {
  return {
    async getRunRows(args) {
      const { historyKey } = await ctx.engine.connect({ env: args.environment })
      const filter = args.filter ?? 'all'
      const counts = ctx.engine.runRows.counts(historyKey, args.runId)
      const rows = ctx.engine.runRows.taskWindow(historyKey, args.runId, {
        from: args.from,
        count: args.count,
        filter,
        failed: counts.failed,
      })
      return { runId: args.runId, total: filter === 'failed' ? counts.failed : counts.tasks, rows }
    },
    async getRunOutputs(args) {
      const { historyKey } = await ctx.engine.connect({ env: args.environment })
      const outputs = ctx.engine.runRows
        .outputWindow(historyKey, args.runId, args.from, args.count)
        // The window names outputs; their content stays here (previewArtifact shows it).
        .map((output) => ({ ...output, inlineText: '', accessUrl: '' }))
      const total = ctx.engine.runRows.counts(historyKey, args.runId).outputs
      return { runId: args.runId, total, outputs }
    },
  }
}
