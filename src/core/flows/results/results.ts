/**
 * The results workbook of a run: one line per submitted row with its input values, the task's
 * status and error, and each output side by side: short text inline, files (and text too long
 * for a cell) as links to the downloaded copy next to the workbook. A second sheet describes
 * the run. Written in a worker with exceljs's streaming writer (large runs stay cheap; see
 * workbooks/write/results-workbook.ts), to a temporary name that is renamed when complete.
 */
import { rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { RunDetail, RunSummary } from '../../../shared/contract'
import {
  runFileName,
  runFolderName,
  type Downloads,
  type DownloadOptions,
  type RunDownload,
} from '../downloads/downloads'
import type { Connection } from '../../environments/connection'
import type { Schemas } from '../prepare/schema-cache'
import type { History } from '../../storage/run-history'
import { ensureFolder, exists, isInside } from '../../files/folders'
import { checkWritableFolder, spillResultsRows, writeResultsWorkbookFile } from '../../workbooks'
import { resultsPlan, type PlannedResults } from './results-plan'
import { storedSource, type ResultsPart } from './results-source'
import { userColumnsOf } from './user-columns'
import type { ColumnMappings } from '../prepare/column-mappings'
import { keptRows } from './kept-rows'
import { rowNumberingOf, type Submissions, type SubmissionSheet } from '../spend/submissions'
import type { Batches } from '../batch/batches'
import { batchLines, batchRunsOf, partWords } from './batch'
import { defined } from '../../../shared/defined'

/** What saving a run's outputs needs of the engine (the engine itself has all of it). */
export interface ResultsServices {
  history: Pick<History, 'recordRuns' | 'retriedBy' | 'keptVersions'>
  submissions: Pick<Submissions, 'byRun' | 'batchRuns' | 'sheetOfRun' | 'rowsWindow'>
  downloads: Pick<Downloads, 'run' | 'rows' | 'savedPath'>
  schemas: Pick<Schemas, 'cached'>
  /** Column mappings the user confirmed: the results keep the names of a mapped sheet's columns. */
  mappings?: Pick<ColumnMappings, 'forTarget'>
  /** The batch the run belongs to: its parts and its summary. */
  batches?: Pick<Batches, 'sendsOf' | 'state'>
}

/**
 * The results workbook's name in the outputs folder: what ran, the workbook sent and when
 * ("Row echo - products - 28 Nov 2026 14.05.32 results.xlsx"), never the run id. To the second,
 * so two runs of one workbook (a pilot and its rest, each confirmed apart) never share it; a run
 * the service names nothing of keeps the name by its id.
 */
export function resultsWorkbookName(runId: string, run: RunSummary | null): string {
  const targetName = run ? run.market?.skillName || run.templateName || run.displayName : ''
  if (!run || (!targetName && !run.inputFilename)) return byRunId(runId)
  const named = {
    targetName,
    inputFilename: run.inputFilename,
    createdAtMs: run.createdAtUnix * 1000,
  }
  return runFileName(named, 'results', { time: true })
}

/** The name earlier versions gave a run's results workbook, still found where it was saved. */
function byRunId(runId: string): string {
  return `${runFolderName(runId)} results.xlsx`
}

/** Where `runId`'s results workbook is written in `folder`, named after the run. */
export async function resultsWorkbookPath(
  history: Pick<History, 'seenRun'>,
  connection: Connection,
  folder: string,
  runId: string,
): Promise<string> {
  const run =
    history.seenRun(connection.historyKey, runId) ?? (await connection.client.run(runId)).run
  return join(folder, resultsWorkbookName(runId, run))
}

/**
 * The results workbook of `runId` already saved in `folder`, by its name or by the run id an
 * earlier Skill Runner named it by; '' when there is none.
 */
export async function savedResultsWorkbook(
  folder: string,
  runId: string,
  run: RunSummary | null,
): Promise<string> {
  for (const name of new Set([resultsWorkbookName(runId, run), byRunId(runId)])) {
    const path = join(folder, name)
    if (await exists(path)) return path
  }
  return ''
}

export interface ResultsWorkbook {
  path: string
  /** Where the outputs were downloaded (the links point there). */
  folder: string
  rows: number
  download: RunDownload
}

/**
 * Saves every output of a run into `<folder>/<run>/<row>/`, rows named as the history knows
 * them (spreadsheet rows for a workbook sent from here), and remembers the run's latest state.
 * The one download flow of every front door.
 */
export async function downloadRunOutputs(
  services: Omit<ResultsServices, 'schemas'>,
  connection: Connection,
  runOrDetail: string | RunDetail,
  folder: string,
  options: DownloadOptions = {},
): Promise<RunDownload> {
  // A run given by its id is read into the history and saved a page at a time (downloads.ts).
  const runId = typeof runOrDetail === 'string' ? runOrDetail : runOrDetail.run.runId
  const submission = services.submissions.sheetOfRun(connection.historyKey, runId)
  return services.downloads.run(connection, runOrDetail, folder, {
    rowNumbering: rowNumberingOf(submission),
    ...options,
    seen: (run) => {
      services.history.recordRuns(connection.historyKey, [run])
      options.seen?.(run)
    },
  })
}

/**
 * One run of the results: its outputs saved (its detail stored in the history as it is read),
 * and its rows sent again in their kept version, whose runs' outputs are saved too.
 */
async function shownPart(
  services: ResultsServices,
  connection: Connection,
  runId: string,
  submission: SubmissionSheet | null,
  workbookDir: string,
  options: DownloadOptions,
): Promise<{ part: ResultsPart; downloads: RunDownload[] }> {
  let run: RunSummary | undefined
  // Every output goes to disk first, so that links work and long text is never cut.
  const own = await downloadRunOutputs(services, connection, runId, workbookDir, {
    ...options,
    seen: (seen) => {
      run = seen
      options.seen?.(seen)
    },
  })
  // A row sent again (redone, or retried) shows its kept version: the newest that succeeded.
  const kept = await keptRows(services, connection, runId, submission, options.signal)
  const downloads = [own]
  for (const laterId of new Set([...kept.values()].map((row) => row.runId)))
    downloads.push(await downloadRunOutputs(services, connection, laterId, workbookDir, options))
  return { part: { run: run!, submission, kept }, downloads }
}

/**
 * The results workbook of a run; for a pilot or the rest of its workbook, of the whole batch:
 * both runs' rows on one sheet in the sheet's row order, each saying which run sent it.
 */
export async function writeResultsWorkbook(
  services: ResultsServices,
  connection: Connection,
  runId: string,
  outPath: string,
  options: DownloadOptions = {},
): Promise<ResultsWorkbook> {
  const path = resolve(outPath)
  const workbookDir = dirname(path)
  // The outputs folder is made when first needed, as a run's download makes its own: on a new
  // computer even the app's default (Downloads/Skill Runner) is not there yet. Made before
  // anything is fetched, so that a folder that cannot be made is said at once.
  await ensureFolder(workbookDir)
  await checkWritableFolder(path)
  // No run's detail is held: the plan reads the stored rows as the writer takes them.
  const { plan, folder, download } = await planResults(
    services,
    connection,
    runId,
    workbookDir,
    options,
  )
  const rows = await writePlannedResults(plan, path, options.signal)
  return { path, folder, rows, download }
}

/**
 * Writes a planned results workbook to `path` (whose folder exists); returns its number of rows.
 * The rows go to a file beside the workbook as they are made, and the worker (under the same
 * memory ceiling as reading a workbook) writes them out from there.
 */
export async function writePlannedResults(
  plan: PlannedResults,
  path: string,
  signal?: AbortSignal,
): Promise<number> {
  const rowsFile = join(dirname(path), `.${basename(path)}.${process.pid}.rows`)
  try {
    const rows = await spillResultsRows(rowsFile, plan.rows)
    const { columns, about } = plan
    await writeResultsWorkbookFile({ columns, about, rowsFile }, path, { signal })
    return rows
  } finally {
    await rm(rowsFile, { force: true })
  }
}

/** The batch's sentence for the Run sheet, when the run was sent here from a sheet. */
async function batchSummaryOf(
  services: ResultsServices,
  connection: Connection,
  submission: SubmissionSheet | null,
  signal?: AbortSignal,
): Promise<{ batchSummary?: string }> {
  if (!submission?.batchId || !services.batches) return {}
  const state = await services.batches.state(connection, submission.batchId, {
    signal,
    keep: false,
  })
  return state ? { batchSummary: state.summary } : {}
}

/**
 * The plan of the results workbook of a run (or of its whole batch), its outputs saved first:
 * run by run, each stored in the history as it is read; the rows are read from there as the
 * workbook is written (results-source.ts).
 */
async function planResults(
  services: ResultsServices,
  connection: Connection,
  runId: string,
  workbookDir: string,
  options: DownloadOptions,
): Promise<{ plan: PlannedResults; folder: string; download: RunDownload }> {
  const { historyKey } = connection
  const submission = services.submissions.sheetOfRun(historyKey, runId)
  const runIds = batchRunsOf(services, historyKey, runId, submission)
  const parts: ResultsPart[] = []
  const downloads: RunDownload[] = []
  for (const id of runIds) {
    const entry = id === runId ? submission : services.submissions.sheetOfRun(historyKey, id)
    const shown = await shownPart(services, connection, id, entry, workbookDir, options)
    parts.push(shown.part)
    downloads.push(...shown.downloads)
  }
  const asked = runIds.indexOf(runId)
  // The downloads of every part counted together; the folder is the asked run's own.
  const download = {
    ...downloads.find((d) => d.runId === runId)!,
    saved: downloads.reduce((n, d) => n + d.saved, 0),
    reused: downloads.reduce((n, d) => n + d.reused, 0),
    failed: downloads.flatMap((d) => d.failed),
  }
  // An output's file is found where this save put it (the ledger says; nothing held per output).
  const savedPath = (id: string, artifactId: string) => {
    const path = services.downloads.savedPath(historyKey, id, artifactId)
    return path && isInside(workbookDir, path) ? path : ''
  }
  const store = { historyKey, rows: services.downloads.rows, journal: services.submissions }
  const words = parts.length > 1 ? partWords(parts) : undefined
  // Column headers as the user knows them: the template's labels when its schema is saved here.
  const schema =
    submission?.targetKind === 'template'
      ? services.schemas.cached(historyKey, submission.targetId)?.schema
      : undefined
  const userColumns =
    schema && submission
      ? await userColumnsOf(services.mappings, historyKey, submission, schema, options.signal)
      : undefined
  const plan = await resultsPlan({
    source: storedSource(store, parts, asked),
    download,
    savedPath,
    submission,
    schema,
    workbookDir,
    connection,
    ...defined({ userColumns, sentIn: words, batchLines: words && batchLines(words, runIds) }),
    ...(await batchSummaryOf(services, connection, submission, options.signal)),
  })
  return { plan, folder: download.folder, download }
}
