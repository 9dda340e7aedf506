/**
 * After a run: saving its outputs and its results workbook into the outputs folder, showing
 * them in the file manager, and the local history (the settings those saves follow: settings.ts).
 */
import type {
  BridgeEventName,
  DownloadResultView,
  RunEnded,
  RunsUpdate,
  ShowInFolderView,
} from '../../../shared/bridge'
import { isTerminalStatus, type RunSummary } from '../../../shared/contract'
import type { RunDownload } from '../../flows/downloads/downloads'
import { EngineError } from '../../errors'
import { refreshAllUnfinished } from '../../flows/history/refresh-unfinished'
import { listHistory } from '../../flows/history/history-view'
import { withFollowUpsTogether } from '../../flows/history/follow-up-groups'
import { keptSetAsides } from '../../flows/spend/set-aside'
import {
  downloadRunOutputs,
  resultsWorkbookPath,
  savedResultsWorkbook,
  writeResultsWorkbook,
  type ResultsServices,
} from '../../flows/results/results'
import { saveOutputsOnEnd, type SaveOnEndServices } from '../../flows/results/save-on-end'
import type { Engine } from '../../engine'
import { throttled } from '../types'
import type { Connects, VerbContext, Verbs } from './context'
import { exists } from '../../files/folders'
import { savedOutputs } from './runs'

type SaveProgress = { doneFiles: number; totalFiles: number; receivedBytes: number }
/** The counts the Bridge's downloadProgress event carries (its contract has no more). */
const saveCounts = ({ doneFiles, totalFiles, receivedBytes }: SaveProgress): SaveProgress => ({
  doneFiles,
  totalFiles,
  receivedBytes,
})

/** What saving a run's outputs and showing them uses of the engine. */
type OutputServices = Connects & ResultsServices & ShowServices
type ShowServices = Connects & Pick<Engine, 'history' | 'downloads'>

/** Saving a run's outputs and its results workbook, and showing them in the file manager. */
export function outputVerbs(
  ctx: VerbContext<OutputServices>,
): Verbs<'downloadRun' | 'saveResultsWorkbook' | 'showInFolder'> {
  const { engine, settings } = ctx
  /** Progress of a save as downloadProgress events, at most five a second (and the last one). */
  const saveProgress = (environment: string, runId: string) =>
    throttled(
      200,
      (progress: SaveProgress) => ctx.emit('downloadProgress', { environment, runId, ...progress }),
      (progress) => progress.doneFiles >= progress.totalFiles,
    )

  return {
    // Into the outputs folder of the settings, the same in the desktop app and in a browser.
    async downloadRun(args): Promise<DownloadResultView> {
      const { outputsFolder, downloadConcurrency } = settings.read()
      const connection = await engine.connect({ env: args.environment })
      const onProgress = saveProgress(args.environment, args.runId)
      const result = await downloadRunOutputs(engine, connection, args.runId, outputsFolder, {
        concurrency: downloadConcurrency,
        onProgress: ({ overall }) => onProgress(saveCounts(overall)),
      })
      return downloadResultView(args.environment, result)
    },
    async saveResultsWorkbook(args) {
      const { outputsFolder, downloadConcurrency } = settings.read()
      const connection = await engine.connect({ env: args.environment })
      const onProgress = saveProgress(args.environment, args.runId)
      const result = await writeResultsWorkbook(
        engine,
        connection,
        args.runId,
        await resultsWorkbookPath(engine.history, connection, outputsFolder, args.runId),
        {
          concurrency: downloadConcurrency,
          onProgress: ({ overall }) => onProgress(saveCounts(overall)),
        },
      )
      return {
        environment: connection.name,
        runId: args.runId,
        path: result.path,
        folder: result.folder,
        rows: result.rows,
        failedDownloads: result.download.failed.length,
      }
    },
    showInFolder: (args) => showInFolder(ctx, args),
  }
}

function downloadResultView(environment: string, result: RunDownload): DownloadResultView {
  return {
    environment,
    runId: result.runId,
    folder: result.folder,
    savedFiles: result.saved,
    skippedFiles: result.reused,
    failed: result.failed.map((f) => ({
      artifactId: f.artifactId,
      message: f.error,
      nextStep: f.nextStep,
    })),
  }
}

/**
 * Saves a run's outputs as soon as the app sees it end (the "keep outputs" setting), with the
 * same progress events as a save the user asked for, then `outputsSaved`. A run is seen ending
 * when the runWatch announces it (runEnded), or when a runs list shows it finished at a time
 * the app was open (a short run can end between two looks). Each run is saved once per session;
 * what is under way stops when the Bridge is disposed.
 */
export function savesOnRunEnd(ctx: VerbContext<Connects & SaveOnEndServices>) {
  const stop = new AbortController()
  const openedAtUnix = Math.floor(Date.now() / 1000)
  const seen = new Set<string>()
  const save = async (environment: string, runId: string) => {
    const connection = await ctx.engine.connect({ env: environment })
    const onProgress = throttled(
      200,
      (progress: SaveProgress) => ctx.emit('downloadProgress', { environment, runId, ...progress }),
      (progress) => progress.doneFiles >= progress.totalFiles,
    )
    const result = await saveOutputsOnEnd(ctx.engine, ctx.settings, connection, runId, {
      signal: stop.signal,
      onProgress: ({ overall }) => onProgress(saveCounts(overall)),
    })
    if (result) ctx.emit('outputsSaved', downloadResultView(environment, result))
  }
  let queue: Promise<void> = Promise.resolve()
  const ended = (environment: string, run: RunSummary) => {
    const key = JSON.stringify([environment, run.runId])
    if (seen.has(key)) return
    seen.add(key)
    // One run's outputs at a time: runs that end together (a big send split in parts) would
    // otherwise each hold thousands of downloads in memory at once.
    // A save that fails leaves the run as it was: "Save all outputs" is still there to try.
    queue = queue.then(() => save(environment, run.runId).catch(() => {}))
  }
  return {
    listener(event: BridgeEventName, payload: unknown) {
      if (event === 'runEnded') {
        const { environment, run } = payload as RunEnded
        ended(environment, run)
      } else if (event === 'runsUpdated') {
        const { environment, items } = payload as RunsUpdate
        for (const run of items)
          if (isTerminalStatus(run.status) && run.completedAtUnix >= openedAtUnix)
            ended(environment, run)
      }
    },
    dispose: () => stop.abort(),
  }
}

/** The local history: what this computer sent, in every environment. */
export function historyVerbs(
  ctx: VerbContext<
    Connects & Pick<Engine, 'environments' | 'history' | 'submissions' | 'schemas' | 'home'>
  >,
): Verbs<'listHistory'> {
  const { engine } = ctx
  const unitLabelOf = (environment: string) =>
    engine.environments.find(environment)?.unitLabel ?? 'credits'
  return {
    async listHistory(args) {
      // Runs still under way in the history are asked after first, so an ended one shows ended.
      const connections = engine.environments.list().map((env) => engine.connect({ env: env.name }))
      await refreshAllUnfinished(engine.history, connections)
      const page = await listHistory(
        engine.history,
        engine.submissions,
        unitLabelOf,
        { search: args.search, limit: args.limit },
        { schemas: engine.schemas },
      )
      const asides = await keptSetAsides(engine.home)
      const items = page.items.map((item) => {
        const aside = item.runId ? asides.get(item.runId) : undefined
        return aside ? { ...item, setAsideRows: aside.rows } : item
      })
      // The window shows a run with its follow-ups under it; the command line keeps date order.
      return { ...page, items: withFollowUpsTogether(items) }
    },
  }
}

async function showInFolder(
  ctx: VerbContext<ShowServices>,
  args: {
    environment: string
    runId: string
    item: 'outputs' | 'results' | 'artifact'
    artifactId?: string | undefined
  },
): Promise<ShowInFolderView> {
  const { engine } = ctx
  const connection = await engine.connect({ env: args.environment })
  const { item, runId } = args
  let path: string
  if (item === 'results')
    path = await savedResultsWorkbook(
      ctx.settings.read().outputsFolder,
      runId,
      engine.history.seenRun(connection.historyKey, runId),
    )
  else if (item === 'artifact')
    path = engine.downloads.savedPath(connection.historyKey, runId, args.artifactId ?? '')
  else path = savedOutputs(engine, connection.historyKey, runId).folder
  if (!path || !(await exists(path)))
    throw new EngineError(
      'not-found',
      item === 'results'
        ? 'The results workbook of this run is not saved yet (or was moved).'
        : item === 'artifact'
          ? 'This output is not saved on this computer yet (or was moved).'
          : 'The outputs of this run are not saved on this computer yet (or were moved).',
      item === 'results'
        ? 'Choose “Save results workbook” first.'
        : 'Choose “Save all outputs” first.',
    )
  // A saved output is shown in its folder, never opened: a file from a service could be a
  // program, and only the user should decide to run it.
  if (ctx.dialogs.showItemInFolder) {
    ctx.dialogs.showItemInFolder(path)
    return { path, shown: true }
  }
  return { path, shown: false }
}
