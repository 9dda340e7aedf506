/**
 * The results workbook of a run: one line per submitted row with its input values, the task's
 * status and error, and each output side by side: short text inline, files (and text too long
 * for a cell) as links to the downloaded copy next to the workbook. A second sheet describes
 * the run. Written in a worker with exceljs's streaming writer (large runs stay cheap; see
 * workbooks/results-file.ts), to a temporary name that is renamed when complete.
 */
import { basename, dirname, relative, resolve, sep } from 'node:path'
import type { Artifact, InputRow, RunDetail } from '../../../shared/contract'
import {
  rowColumnHeader,
  rowNumberOf,
  runCostText,
  statusLabel,
  statusTone,
} from '../../../shared/format'
import {
  runDetailOf,
  runFolderName,
  type Downloads,
  type DownloadOptions,
  type RunDownload,
} from '../downloads/downloads'
import type { Connection } from '../../environments/connection'
import type { Schemas } from '../prepare/schema-cache'
import type { History } from '../../storage/run-history'
import {
  checkWritableFolder,
  writeResultsWorkbookFile,
  type PlanCell,
  type ResultsPlan,
} from '../../workbooks'
import { rowNumberingOf, type Submissions } from '../spend/submissions'

/** What saving a run's outputs needs of the engine (the engine itself has all of it). */
export interface ResultsServices {
  history: Pick<History, 'recordRuns'>
  submissions: Pick<Submissions, 'byRun'>
  downloads: Pick<Downloads, 'run'>
  schemas: Pick<Schemas, 'cached'>
}

/** The results workbook's name in the outputs folder, beside the run's folder. */
export function resultsWorkbookName(runId: string): string {
  return `${runFolderName(runId)} results.xlsx`
}

/** Excel keeps at most 32,767 characters in a cell; longer text is linked instead. */
const CELL_TEXT_MAX = 32_000

export interface ResultsWorkbook {
  path: string
  /** Where the outputs were downloaded (the links point there). */
  folder: string
  rows: number
  download: RunDownload
}

function cellValue(value: unknown): PlanCell {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map((v) => String(cellValue(v) ?? '')).join('; ')
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    if (typeof v.inputAssetId === 'string') return `asset ${v.inputAssetId}`
    if (typeof v.localPath === 'string') return basename(v.localPath)
    return JSON.stringify(value)
  }
  return value as string | number | boolean
}

/** A link Excel and LibreOffice open relative to the workbook's folder. */
function fileLink(workbookDir: string, path: string): { text: string; hyperlink: string } {
  const rel = relative(workbookDir, path).split(sep).join('/')
  return { text: basename(path), hyperlink: encodeURI(rel) }
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
  const detail = await runDetailOf(connection, runOrDetail, options.signal)
  services.history.recordRuns(connection.historyKey, [detail.run])
  const submission = services.submissions.byRun(connection.historyKey, detail.run.runId)
  return services.downloads.run(connection, detail, folder, {
    rowNumbering: rowNumberingOf(submission),
    ...options,
  })
}

export async function writeResultsWorkbook(
  services: ResultsServices,
  connection: Connection,
  runId: string,
  outPath: string,
  options: DownloadOptions = {},
): Promise<ResultsWorkbook> {
  const path = resolve(outPath)
  const workbookDir = dirname(path)
  await checkWritableFolder(path)
  const detail: RunDetail = await connection.client.run(runId, { signal: options.signal })
  // Every output goes to disk first, so that links work and long text is never cut.
  const download = await downloadRunOutputs(services, connection, detail, workbookDir, options)
  const saved = new Map(download.files.map((f) => [f.artifactId, f.path]))
  const failedDownloads = new Map(download.failed.map((f) => [f.artifactId, f.error]))
  const submission = services.submissions.byRun(connection.historyKey, runId)
  const numbering = rowNumberingOf(submission)

  const tasksByRow = new Map(detail.tasks.map((t) => [t.sourceRowIndex, t]))
  const artifactsByRow = new Map<number, Artifact[]>()
  const ports: string[] = []
  for (const artifact of detail.artifacts) {
    const port = artifact.portName || 'output'
    if (!ports.includes(port)) ports.push(port)
    const list = artifactsByRow.get(artifact.sourceRowIndex) ?? []
    list.push(artifact)
    artifactsByRow.set(artifact.sourceRowIndex, list)
  }
  const inputRows: InputRow[] = submission?.rows ?? []
  // Column headers as the user knows them: the template's labels when its schema is saved here.
  const schema =
    submission?.targetKind === 'template'
      ? services.schemas.cached(connection.historyKey, submission.targetId)?.schema
      : undefined
  const labelOf = (key: string) => {
    const column = schema?.columns.find((c) => c.fieldKey === key)
    const field = schema?.fields.find((f) => f.key === key)
    return column?.headerLabel || field?.label || key
  }
  const inputKeys: string[] = []
  for (const row of inputRows)
    for (const key of Object.keys(row)) if (!inputKeys.includes(key)) inputKeys.push(key)
  const rowCount = Math.max(
    inputRows.length,
    detail.run.totalTasks,
    ...detail.tasks.map((t) => t.sourceRowIndex + 1),
    ...detail.artifacts.map((a) => a.sourceRowIndex + 1),
  )

  const plan: ResultsPlan = {
    columns: [
      { header: rowColumnHeader(numbering), width: 12 },
      ...inputKeys.map((key) => ({ header: labelOf(key), width: 24 })),
      { header: 'Task status', width: 14 },
      { header: 'Error', width: 40 },
      ...ports.map((port) => ({ header: port, width: 50 })),
    ],
    rows: [],
    about: { header: ['Run', detail.run.runId], lines: [] },
  }
  for (let index = 0; index < rowCount; index += 1) {
    const task = tasksByRow.get(index)
    const input = inputRows[index] ?? {}
    const outputs = ports.map((port): PlanCell => {
      const mine = (artifactsByRow.get(index) ?? []).filter(
        (a) => (a.portName || 'output') === port,
      )
      if (mine.length === 0) return null
      const artifact = mine[0]!
      const file = saved.get(artifact.artifactId)
      const more = mine.length > 1 ? ` (+${mine.length - 1} more in the row's folder)` : ''
      if (artifact.inlineText && artifact.inlineText.length <= CELL_TEXT_MAX && !more)
        return artifact.inlineText
      if (file) {
        const link = fileLink(workbookDir, file)
        return { ...link, text: link.text + more }
      }
      return `not downloaded: ${failedDownloads.get(artifact.artifactId) ?? 'unknown error'}`
    })
    plan.rows.push({
      cells: [
        rowNumberOf(numbering, index),
        ...inputKeys.map((key) => cellValue(input[key])),
        task ? statusLabel(task.status) : 'no task',
        task?.errorMessage || null,
        ...outputs,
      ],
      ...(task && statusTone(task.status) === 'bad' ? { badCell: inputKeys.length + 2 } : {}),
      linkCells: outputs.flatMap((value, i) =>
        value && typeof value === 'object' && !(value instanceof Date)
          ? [inputKeys.length + 4 + i]
          : [],
      ),
    })
  }
  const run = detail.run
  plan.about.lines = [
    ['Name', run.displayName || run.templateName || run.templateKey],
    ['Status', statusLabel(run.status)],
    ['Template or listing', submission?.targetId || run.templateKey || run.templateName],
    ['Input file', submission?.inputFilename || run.inputFilename],
    [
      'Tasks',
      `${run.completedTasks} done, ${run.failedTasks} failed, ${run.cancelledTasks} cancelled of ${run.totalTasks}`,
    ],
    ['Cost', runCostText(run, connection.unitLabel)],
    ['Created', run.createdAtUnix ? new Date(run.createdAtUnix * 1000) : null],
    ['Completed', run.completedAtUnix ? new Date(run.completedAtUnix * 1000) : null],
    ['Environment', `${connection.name} (${connection.origin})`],
    ['Outputs folder', relative(workbookDir, download.folder) || '.'],
    ['Retry of run', submission?.retryOfRunId || null],
    ['First error', run.firstErrorMessage || null],
  ]
  // Written in a worker (parse.ts), under the same memory ceiling as reading a workbook.
  await writeResultsWorkbookFile(plan, path, { signal: options.signal })
  return { path, folder: download.folder, rows: rowCount, download }
}
