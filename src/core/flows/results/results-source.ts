/**
 * What the results workbook reads of a run, or of a batch's runs, row by row, from the history:
 * each run's detail was stored as it was read (storage/tables/run-rows.ts) and its rows were
 * journaled one line each (submission_rows), so rows are read a window at a time, run by run, in
 * the sheet's row order across a batch's runs; a row sent again shows its kept version
 * (kept-rows.ts). Held for the whole workbook: a few numbers a row (the rows' order) and each
 * run's output ids by row while its rows are being read; never a run's detail or its inputs.
 */
import type { Artifact, InputRow, RunSummary, RunTask } from '../../../shared/contract'
import {
  rowNumberOf,
  spreadsheetRows,
  SUBMITTED_ROWS,
  type RowNumbering,
} from '../../../shared/format'
import type { RunRowsTable } from '../../storage/tables/run-rows'
import { rowNumberingOf, type Submissions, type SubmissionSheet } from '../spend/submissions'
import { batchRun } from './batch'
import type { KeptRow } from './kept-rows'

/** One run of the results: its summary, its journal entry (rows left there), its kept rows. */
export interface ResultsPart {
  run: RunSummary
  submission: SubmissionSheet | null
  kept: Map<number, KeptRow>
}

/** Where the rows are read from. */
export interface ResultsStore {
  historyKey: string
  rows: Pick<RunRowsTable, 'tasksOfRows' | 'outputIdPages' | 'output' | 'taskTally' | 'outputPorts'>
  journal: Pick<Submissions, 'rowsWindow'>
}

/** One line of the results: its number, the part it came from (-1: none), what it shows. */
export interface ResultsRow {
  number: number
  part: number
  input: InputRow
  task: RunTask | undefined
  outputs: Artifact[]
  /** The run the outputs are of (a row's kept later version is another run's). */
  outputsRun: string
}

type TaskCounts = { all: number; succeeded: number; failed: number; cancelled: number }

export interface ResultsSource {
  /** The run, or the batch's runs added up (batch.ts). */
  run: RunSummary
  /** The output ports, in the order they first appear among the outputs shown. */
  ports: string[]
  /** How many tasks are shown, and how many of them ended each way. */
  tasks: TaskCounts
  numbering: RowNumbering | null
  rowCount: number
  /** Each row's cells as shown, in the lines' order (a pass of its own). */
  inputs(): Iterable<InputRow>
  rows(): Iterable<ResultsRow>
}

/** Rows read at once from the history. */
const WINDOW = 256

function portOf(artifact: Artifact): string {
  return artifact.portName || 'output'
}

function countTasks(tasks: TaskCounts, status: string, n: number) {
  tasks.all += n
  if (status === 'succeeded') tasks.succeeded += n
  else if (status === 'failed') tasks.failed += n
  else if (status === 'cancelled') tasks.cancelled += n
}

/**
 * A part's ports, its shown tasks counted, and how many lines it has, counted by the history
 * (a part's 10,000 tasks are not read for it). A row sent again counts as its kept version, once
 * for each task the part had for it.
 */
function overview(store: ResultsStore, part: ResultsPart, tasks: TaskCounts) {
  const { runId } = part.run
  const keptRows = [...part.kept.keys()]
  const outputs = store.rows.outputPorts(store.historyKey, runId, keptRows)
  const ports = outputs.ports.map((port) => port || 'output')
  for (const kept of part.kept.values()) ports.push(...kept.artifacts.map(portOf))
  const tally = store.rows.taskTally(store.historyKey, runId, keptRows)
  for (const [status, n] of tally.byStatus) countTasks(tasks, status, n)
  for (const [row, n] of tally.apart) {
    const shown = part.kept.get(row)?.task
    if (shown) countTasks(tasks, shown.status, n)
  }
  const lastRow = Math.max(outputs.lastRow, tally.lastRow)
  return { ports, lines: Math.max(part.submission?.rowCount ?? 0, lastRow + 1) }
}

/** A batch's lines in sheet row order (a line without one last, in its run's order). */
function sheetOrder(parts: ResultsPart[], lines: number[]) {
  const total = lines.reduce((a, b) => a + b, 0)
  const keys = new Float64Array(total)
  const partOf = new Uint32Array(total)
  const indexOf = new Uint32Array(total)
  let at = 0
  parts.forEach((part, p) => {
    const numbers = part.submission?.rowNumbers ?? []
    for (let i = 0; i < lines[p]!; i += 1, at += 1) {
      keys[at] = numbers[i] ?? Number.POSITIVE_INFINITY
      partOf[at] = p
      indexOf[at] = i
    }
  })
  const order = new Uint32Array(total).map((_, k) => k)
  // Equal sheet rows keep the order they were sent in.
  order.sort((a, b) => keys[a]! - keys[b]! || a - b)
  const numbered = keys.every((k) => Number.isFinite(k))
  const numbering = numbered ? spreadsheetRows(Array.from(order, (k) => keys[k]!)) : SUBMITTED_ROWS
  return { total, numbering, at: (line: number) => order[line]!, partOf, indexOf }
}

/**
 * One part's rows a window at a time, in the order asked (a window read again when a row
 * before it is asked); its output ids by row are gathered when first needed and let go of
 * after its last row.
 */
class PartReader {
  private start = 0
  private end = 0
  private inputs: InputRow[] = []
  private tasks = new Map<number, RunTask>()
  private outputIds: Map<number, string[]> | null = null
  private legacy: InputRow[] | null = null

  constructor(
    private readonly store: ResultsStore,
    private readonly part: ResultsPart,
    private left: number,
    private readonly withOutcomes: boolean,
  ) {}

  input(index: number): InputRow {
    this.load(index)
    return this.part.kept.get(index)?.input ?? this.inputs[index - this.start] ?? {}
  }

  row(index: number): Omit<ResultsRow, 'number' | 'part'> {
    const input = this.input(index)
    const kept = this.part.kept.get(index)
    const task = this.tasks.get(index)
    const shown = kept
      ? { input, task: task && kept.task, outputs: kept.artifacts, outputsRun: kept.runId }
      : { input, task, outputs: this.outputsOf(index), outputsRun: this.part.run.runId }
    if (--this.left === 0) [this.outputIds, this.legacy] = [null, null]
    return shown
  }

  private load(index: number) {
    if (index >= this.start && index < this.end) return
    const { store, part } = this
    this.start = index
    this.end = index + WINDOW
    this.inputs = this.inputsFrom(index)
    if (!this.withOutcomes) return
    this.tasks = new Map()
    // Tasks come in row order; a row with two keeps the last, as a map of the detail would.
    for (const task of store.rows.tasksOfRows(store.historyKey, part.run.runId, index, this.end))
      this.tasks.set(task.sourceRowIndex, task)
  }

  private inputsFrom(index: number): InputRow[] {
    const entry = this.part.submission
    if (!entry) return []
    if (entry.rowsSha256) return this.store.journal.rowsWindow(entry, index, this.end)
    // An entry journaled before its rows were kept a line each holds them as one text: read once.
    this.legacy ??= this.store.journal.rowsWindow(entry, 0, entry.rowCount)
    return this.legacy.slice(index, this.end)
  }

  private outputsOf(index: number): Artifact[] {
    const { historyKey, rows } = this.store
    const runId = this.part.run.runId
    this.outputIds ??= idsByRow(rows, historyKey, runId, this.part.kept)
    const ids = this.outputIds.get(index) ?? []
    return ids.flatMap((id) => rows.output(historyKey, runId, id) ?? [])
  }
}

/** A run's output ids by row, in the service's order (rows whose later version is kept left out). */
function idsByRow(
  rows: ResultsStore['rows'],
  historyKey: string,
  runId: string,
  kept: Map<number, KeptRow>,
): Map<number, string[]> {
  const ids = new Map<number, string[]>()
  for (const page of rows.outputIdPages(historyKey, runId))
    for (const { sourceRowIndex: row, artifactId } of page) {
      if (kept.has(row)) continue
      const list = ids.get(row)
      if (list) list.push(artifactId)
      else ids.set(row, [artifactId])
    }
  return ids
}

/**
 * The results of `parts` (one run, or a batch's runs in the order sent), the one asked for at
 * `asked`: a batch's lines in sheet row order, each run's rows in its kept versions.
 */
export function storedSource(
  store: ResultsStore,
  parts: ResultsPart[],
  asked: number,
): ResultsSource {
  const tasks: TaskCounts = { all: 0, succeeded: 0, failed: 0, cancelled: 0 }
  const seen = parts.map((part) => overview(store, part, tasks))
  const lines = seen.map((s) => s.lines)
  const order = parts.length > 1 ? sheetOrder(parts, lines) : null
  const total = order?.total ?? lines[0] ?? 0
  const run = order
    ? batchRun(
        parts.map((p) => p.run),
        asked,
      )
    : parts[0]!.run
  const numbering = order?.numbering ?? rowNumberingOf(parts[0]!.submission)
  const place = (line: number) => {
    const at = order?.at(line) ?? line
    return { part: order?.partOf[at] ?? 0, index: order?.indexOf[at] ?? line }
  }
  const readers = (withOutcomes: boolean) =>
    parts.map((part, p) => new PartReader(store, part, lines[p]!, withOutcomes))
  return {
    run,
    ports: [...new Set(seen.flatMap((s) => s.ports))],
    tasks,
    numbering,
    rowCount: Math.max(
      total,
      parts.reduce((n, p) => n + p.run.totalTasks, 0),
    ),
    *inputs() {
      const read = readers(false)
      for (let line = 0; line < total; line += 1) {
        const { part, index } = place(line)
        yield read[part]!.input(index)
      }
    },
    *rows() {
      const read = readers(true)
      for (let line = 0; line < this.rowCount; line += 1) {
        const number = rowNumberOf(numbering, line)
        if (line >= total) {
          yield { number, part: -1, input: {}, task: undefined, outputs: [], outputsRun: '' }
          continue
        }
        const { part, index } = place(line)
        yield { number, part, ...read[part]!.row(index) }
      }
    },
  }
}
