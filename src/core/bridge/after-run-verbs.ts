/**
 * What the app does after a run was submitted, written once for every front door: the run's
 * overview (with what this device knows), artifact previews, saving outputs and the results
 * workbook into the outputs folder, showing them in the file manager, the history, the creator
 * views and the settings. The Bridge's handlers (bridge-handlers.ts) only call these.
 */
import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type {
  ArtifactPreviewView,
  HistoryPage,
  ListingPage,
  ResultsWorkbookView,
  RunOverview,
  SettingsView,
  ShowInFolderView,
} from '../../shared/bridge'
import type { PrivateTemplate, ReviewRequest, RunSummary } from '../../shared/contract'
import { previewArtifact } from '../flows/downloads/artifact-preview'
import { runFolderName, type RunDownload } from '../flows/downloads/downloads'
import type { Engine } from '../engine'
import { EngineError } from '../errors'
import { listHistory, type HistoryQuery } from '../flows/history/history-view'
import { downloadRunOutputs, writeResultsWorkbook } from '../flows/results/results'
import { rowNumberingOf } from '../flows/spend/submissions'
import { defaultOutputsFolder, type SettingsPatch } from '../storage/settings'

export type SaveProgress = (progress: {
  doneFiles: number
  totalFiles: number
  receivedBytes: number
}) => void

export interface AfterRunShell {
  /** Electron: shell.showItemInFolder. Without it the path is only given back to be copied. */
  showItemInFolder?: (path: string) => void
  /** Where outputs go when the user chose no folder (tests use their own folder). */
  defaultOutputsFolder?: () => string
  /** Electron: the system's folder picker, starting at `current`; null when cancelled. */
  chooseFolder?: (title: string, current: string) => Promise<string | null>
}

/** The results workbook's name in the outputs folder, beside the run's folder. */
export function resultsWorkbookName(runId: string): string {
  return `${runFolderName(runId)} results.xlsx`
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

export function createAfterRun(engine: Engine, shell: AfterRunShell = {}) {
  const settings = engine.settings(shell.defaultOutputsFolder ?? defaultOutputsFolder)

  const unitLabelOf = (environment: string) =>
    engine.environments.find(environment)?.unitLabel ?? 'credits'

  async function runFolderSaved(origin: string, runId: string) {
    const paths = engine.history.savedFiles(origin, runId)
    // Files sit in <run folder>/<row folder>/<file>.
    return { folder: paths[0] ? dirname(dirname(paths[0])) : '', files: paths.length }
  }

  async function saveOutputs(
    environment: string,
    runId: string,
    onProgress: SaveProgress,
  ): Promise<RunDownload> {
    const { outputsFolder, downloadConcurrency } = settings.read()
    const connection = await engine.connect({ env: environment })
    return downloadRunOutputs(engine, connection, runId, outputsFolder, {
      concurrency: downloadConcurrency,
      onProgress: ({ overall }) => onProgress(overall),
    })
  }

  return {
    settings: (): SettingsView => settings.read(),
    updateSettings: (patch: SettingsPatch): SettingsView => settings.update(patch),
    /** The desktop's folder picker for the outputs folder (a browser page has none). */
    async chooseOutputsFolder(): Promise<SettingsView | null> {
      if (!shell.chooseFolder)
        throw new EngineError(
          'bad-input',
          'A browser cannot show this computer’s folders.',
          'Type the folder’s full path in the box and choose Save.',
        )
      const chosen = await shell.chooseFolder(
        'Where should Skill Runner save outputs?',
        settings.read().outputsFolder,
      )
      return chosen ? settings.update({ outputsFolder: chosen }) : null
    },
    setUnitLabel(environment: string, unitLabel: string) {
      engine.environments.setUnitLabel(environment, unitLabel)
    },

    /**
     * Runs whose summary names no input file get the one this device sent them from (the
     * service is not told file names); others are returned as they are.
     */
    withLocalFileNames(origin: string, runs: RunSummary[]): RunSummary[] {
      const unnamed = runs.filter((run) => !run.inputFilename).map((run) => run.runId)
      if (unnamed.length === 0) return runs
      const names = engine.submissions.inputFilenames(origin, unnamed)
      if (names.size === 0) return runs
      return runs.map((run) =>
        names.has(run.runId) ? { ...run, inputFilename: names.get(run.runId)! } : run,
      )
    },

    /** Whether the run was submitted from this device (the history has it). */
    isOwnRun(environment: string, runId: string): boolean {
      const env = engine.environments.find(environment)
      if (!env) return false
      return engine.history.isOwnRun(env.name, runId)
    },

    async runOverview(environment: string, runId: string): Promise<RunOverview> {
      const connection = await engine.connect({ env: environment })
      const detail = await connection.client.run(runId)
      engine.recordRuns(connection.historyKey, [detail.run])
      const submission = engine.submissions.byRun(connection.historyKey, runId)
      const retriedBy = engine.history.retriedBy(connection.historyKey, runId)
      const saved = await runFolderSaved(connection.historyKey, runId)
      const workbook = join(settings.read().outputsFolder, resultsWorkbookName(runId))
      const numbering = rowNumberingOf(submission)
      const rowNumbers = numbering?.source === 'spreadsheet' ? numbering.numbers : []
      return {
        environment: connection.name,
        unitLabel: connection.unitLabel,
        detail,
        fromThisDevice: submission !== null,
        inputFilename: submission?.inputFilename || detail.run.inputFilename,
        rowNumbers: rowNumbers.length > 0 ? [...rowNumbers] : null,
        retryOfRunId: submission?.retryOfRunId ?? '',
        retriedBy,
        savedFolder: saved.folder,
        savedFiles: saved.files,
        resultsWorkbook: (await exists(workbook)) ? workbook : '',
      }
    },

    async previewArtifact(
      environment: string,
      runId: string,
      artifactId: string,
    ): Promise<ArtifactPreviewView> {
      const connection = await engine.connect({ env: environment })
      const detail = await connection.client.run(runId)
      const artifact = detail.artifacts.find((a) => a.artifactId === artifactId)
      if (!artifact)
        throw new EngineError(
          'not-found',
          `Run ${runId} has no output ${artifactId}.`,
          'Open the run again; its outputs may have changed.',
        )
      return previewArtifact(connection.client, artifact)
    },

    saveOutputs,

    async saveResultsWorkbook(
      environment: string,
      runId: string,
      onProgress: SaveProgress,
    ): Promise<ResultsWorkbookView> {
      const { outputsFolder, downloadConcurrency } = settings.read()
      const connection = await engine.connect({ env: environment })
      const result = await writeResultsWorkbook(
        engine,
        connection,
        runId,
        join(outputsFolder, resultsWorkbookName(runId)),
        { concurrency: downloadConcurrency, onProgress: ({ overall }) => onProgress(overall) },
      )
      return {
        environment: connection.name,
        runId,
        path: result.path,
        folder: result.folder,
        rows: result.rows,
        failedDownloads: result.download.failed.length,
      }
    },

    async showInFolder(
      environment: string,
      runId: string,
      item: 'outputs' | 'results' | 'artifact',
      artifactId?: string,
    ): Promise<ShowInFolderView> {
      const connection = await engine.connect({ env: environment })
      let path: string
      if (item === 'results') path = join(settings.read().outputsFolder, resultsWorkbookName(runId))
      else if (item === 'artifact')
        path = engine.downloads.savedPaths(connection.historyKey, runId).get(artifactId ?? '') ?? ''
      else path = (await runFolderSaved(connection.historyKey, runId)).folder
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
      if (shell.showItemInFolder) {
        shell.showItemInFolder(path)
        return { path, shown: true }
      }
      return { path, shown: false }
    },

    history: (query: HistoryQuery): HistoryPage =>
      listHistory(engine.history, engine.submissions, unitLabelOf, query),

    async myListings(
      environment: string,
      query: {
        search?: string | undefined
        pageSize?: number | undefined
        pageToken?: string | undefined
      },
    ): Promise<ListingPage> {
      const connection = await engine.connect({ env: environment })
      const page = await connection.client.listCreatorListings(query)
      return { environment: connection.name, items: page.items, nextPageToken: page.nextPageToken }
    },

    async reviewRequest(environment: string, id: string): Promise<ReviewRequest> {
      const connection = await engine.connect({ env: environment })
      return connection.client.reviewRequest(id)
    },

    async privateTemplate(environment: string, templateId: string): Promise<PrivateTemplate> {
      const connection = await engine.connect({ env: environment })
      return connection.client.privateTemplate(templateId)
    },
  }
}

export type AfterRun = ReturnType<typeof createAfterRun>
