/**
 * What the results workbook holds, worked out without touching the disk: one line per submitted
 * row with its input values, the task's status and error, and each output side by side (short
 * text inline; files, and text too long for a cell, as links to the downloaded copy); a second
 * sheet describes the run.
 */
import type { UserColumn } from './user-columns'
import { basename, relative, sep } from 'node:path'
import {
  isTerminalStatus,
  type Artifact,
  type InputRow,
  type OfficialTemplateSchema,
  type RunSummary,
} from '../../../shared/contract'
import {
  rowColumnHeader,
  runCostText,
  runOutcome,
  statusLabel,
  statusTone,
} from '../../../shared/format'
import type { Connection } from '../../environments/connection'
import { breather } from '../../service/limits'
import type { PlanCell, PlanRow, ResultsPlan } from '../../workbooks'
import type { RunDownload } from '../downloads/downloads'
import { REDO_HEADER } from './redo-column'
import type { SubmissionSheet } from '../spend/submissions'
import type { ResultsRow, ResultsSource } from './results-source'

/** Excel keeps at most 32,767 characters in a cell; longer text is linked instead. */
const CELL_TEXT_MAX = 32_000

export interface ResultsInput {
  /** The rows, read from the history a window at a time. */
  source: ResultsSource
  /** The journal entry of the run asked for (its rows left there). */
  submission: SubmissionSheet | null
  schema: OfficialTemplateSchema | undefined
  download: RunDownload
  /** Where an output of a run was saved ('' when it is not), asked as each row is made. */
  savedPath: (runId: string, artifactId: string) => string
  workbookDir: string
  connection: Pick<Connection, 'name' | 'origin' | 'unitLabel'>
  /** A mapped sheet's own columns (field key and the user's header), in the sheet's order. */
  userColumns?: UserColumn[]
  /** A batch's runs (batch.ts) in words ('Pilot', 'Rest'), by the rows' `part`. */
  sentIn?: string[]
  /** A batch's lines for the Run sheet: its runs, by their ids. */
  batchLines?: [string, string][]
  /** The batch in one sentence, as the app and the command line say it. */
  batchSummary?: string
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
 * Every field key of the submitted rows, in the order they first appear. A batch's rows are
 * 100,000 read from the history: the engine's other work gets its turns while they are gone
 * through.
 */
async function inputKeysOf(rows: Iterable<InputRow>): Promise<string[]> {
  const keys: string[] = []
  const breathe = breather()
  for (const row of rows) {
    for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key)
    const turn = breathe()
    if (turn) await turn
  }
  return keys
}

/** The keys in the order of the user's sheet when it was mapped (the rest after them). */
function inSheetOrder(keys: string[], columns: UserColumn[] | undefined): string[] {
  if (!columns) return keys
  const first = columns.map((c) => c.key).filter((k) => keys.includes(k))
  return [...first, ...keys.filter((k) => !first.includes(k))]
}

function labelOf(schema: OfficialTemplateSchema | undefined, key: string): string {
  const column = schema?.columns.find((c) => c.fieldKey === key)
  const field = schema?.fields.find((f) => f.key === key)
  return column?.headerLabel || field?.label || key
}

/**
 * Where the outputs were saved (asked of the history one at a time, never held for every
 * output), and why those that failed were not, by artifact id.
 */
interface SavedOutputs {
  dir: string
  path: (runId: string, artifactId: string) => string
  failures: Map<string, string>
}

/** One output cell: the text itself, a link to the saved file, or why it is not there. */
function outputCell(saved: SavedOutputs, runId: string, mine: Artifact[]): PlanCell {
  if (mine.length === 0) return null
  const artifact = mine[0]!
  const more = mine.length > 1 ? ` (+${mine.length - 1} more in the row's folder)` : ''
  if (artifact.inlineText && artifact.inlineText.length <= CELL_TEXT_MAX && !more)
    return artifact.inlineText
  const file = saved.path(runId, artifact.artifactId)
  if (file) {
    const link = fileLink(saved.dir, file)
    return { ...link, text: link.text + more }
  }
  return `not downloaded: ${saved.failures.get(artifact.artifactId) ?? 'unknown error'}`
}

/**
 * The run's counters as its rows show them: a row sent again and kept in its later version
 * counts as that version ended, so the Run sheet tells the same story as the rows below it.
 */
function shownCounters(source: ResultsSource): RunSummary {
  const { run, tasks } = source
  if (!isTerminalStatus(run.status) || tasks.all === 0) return run
  return {
    ...run,
    completedTasks: tasks.succeeded,
    failedTasks: tasks.failed,
    cancelledTasks: tasks.cancelled,
    totalTasks: Math.max(run.totalTasks, tasks.all),
  }
}

function aboutLines(input: ResultsInput): ResultsPlan['about']['lines'] {
  const { submission, connection } = input
  const run = shownCounters(input.source)
  return [
    ['Name', run.displayName || run.templateName || run.templateKey],
    ['Status', runOutcome(run).label],
    ...(input.batchSummary ? [['Rows', input.batchSummary] as [string, string]] : []),
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
    ['Outputs folder', relative(input.workbookDir, input.download.folder) || '.'],
    ['Retry of run', submission?.retryOfRunId || null],
    ['First error', run.firstErrorMessage || null],
    ...(input.batchLines ?? []),
  ]
}

/** The results workbook's plan, its rows given one at a time as they are written out. */
export interface PlannedResults {
  columns: ResultsPlan['columns']
  about: ResultsPlan['about']
  rows: Iterable<PlanRow>
}

export async function resultsPlan(input: ResultsInput): Promise<PlannedResults> {
  const { source } = input
  const numbering = source.numbering
  const ports = source.ports
  const inputKeys = inSheetOrder(await inputKeysOf(source.inputs()), input.userColumns)
  const saved: SavedOutputs = {
    dir: input.workbookDir,
    path: input.savedPath,
    failures: new Map(input.download.failed.map((f) => [f.artifactId, f.error])),
  }
  // A batch's rows say which of its runs sent them, beside the row number.
  const sentIn = input.sentIn
  const lead = sentIn ? 1 : 0
  const rowOf = (line: ResultsRow): PlanRow => {
    const { number, part, input: row, task, outputs: mine } = line
    const outputs = ports.map((port) =>
      outputCell(
        saved,
        line.outputsRun,
        mine.filter((a) => (a.portName || 'output') === port),
      ),
    )
    return {
      cells: [
        number,
        ...(sentIn ? [sentIn[part] ?? null] : []),
        ...inputKeys.map((key) => cellValue(row[key])),
        task ? statusLabel(task.status) : 'no task',
        task?.errorMessage || null,
        ...outputs,
        null,
      ],
      ...(task && statusTone(task.status) === 'bad'
        ? { badCell: lead + inputKeys.length + 2 }
        : {}),
      linkCells: outputs.flatMap((value, i) =>
        value && typeof value === 'object' && !(value instanceof Date)
          ? [lead + inputKeys.length + 4 + i]
          : [],
      ),
    }
  }
  return {
    columns: [
      { header: rowColumnHeader(numbering), width: 12 },
      ...(sentIn ? [{ header: 'Sent in', width: 10 }] : []),
      ...inputKeys.map((key) => ({
        header: input.userColumns?.find((c) => c.key === key)?.header ?? labelOf(input.schema, key),
        width: 24,
      })),
      { header: 'Task status', width: 14 },
      { header: 'Error', width: 40 },
      ...ports.map((port) => ({ header: port, width: 50 })),
      // Left empty for the user: rows marked here can be sent again (a redo of poor outputs).
      { header: REDO_HEADER, width: 8 },
    ],
    about: { header: ['Run', source.run.runId], lines: aboutLines(input) },
    rows: {
      *[Symbol.iterator]() {
        for (const row of source.rows()) yield rowOf(row)
      },
    },
  }
}
