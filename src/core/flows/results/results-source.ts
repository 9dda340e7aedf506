/**
 * What the results workbook reads of a run, row by row: from its detail held whole (a batch's
 * runs merged, rows sent again in their kept version), or from the history where its detail was
 * stored as it was read (storage/tables/run-rows.ts), so a run of 100,000 rows is never held
 * whole: one pass over its outputs keeps only their ids by row, and each row's outputs are read
 * back when its line is made.
 */
import type { Artifact, RunDetail, RunSummary, RunTask } from '../../../shared/contract'
import type { RunRowsTable } from '../../storage/tables/run-rows'

export interface ResultsSource {
  run: RunSummary
  /** The output ports, in the order they first appear among the outputs. */
  ports: string[]
  /** The highest row index among the run's tasks and outputs (-1 for none). */
  lastRow: number
  /** How many tasks the run has, and how many of them ended each way. */
  tasks: { all: number; succeeded: number; failed: number; cancelled: number }
  /** Rows 0 to `count - 1` in order: each one's task and its outputs in the service's order. */
  rows(count: number): Iterable<{ task: RunTask | undefined; outputs: Artifact[] }>
}

function portOf(artifact: Artifact): string {
  return artifact.portName || 'output'
}

function countTask(tasks: ResultsSource['tasks'], task: RunTask) {
  tasks.all += 1
  if (task.status === 'succeeded') tasks.succeeded += 1
  else if (task.status === 'failed') tasks.failed += 1
  else if (task.status === 'cancelled') tasks.cancelled += 1
}

const noTasks = () => ({ all: 0, succeeded: 0, failed: 0, cancelled: 0 })

/** A run whose detail is held whole. */
export function heldSource(detail: RunDetail): ResultsSource {
  const tasksByRow = new Map(detail.tasks.map((t) => [t.sourceRowIndex, t]))
  const byRow = new Map<number, Artifact[]>()
  const ports: string[] = []
  const tasks = noTasks()
  // Loops, not a spread into Math.max: a big run's items are no argument list.
  let lastRow = -1
  for (const task of detail.tasks) {
    countTask(tasks, task)
    lastRow = Math.max(lastRow, task.sourceRowIndex)
  }
  for (const artifact of detail.artifacts) {
    if (!ports.includes(portOf(artifact))) ports.push(portOf(artifact))
    const list = byRow.get(artifact.sourceRowIndex) ?? []
    list.push(artifact)
    byRow.set(artifact.sourceRowIndex, list)
    lastRow = Math.max(lastRow, artifact.sourceRowIndex)
  }
  return {
    run: detail.run,
    ports,
    lastRow,
    tasks,
    *rows(count) {
      for (let index = 0; index < count; index += 1)
        yield { task: tasksByRow.get(index), outputs: byRow.get(index) ?? [] }
    },
  }
}

/** A run whose detail is stored in the history (read there just before). */
export function storedSource(
  table: Pick<RunRowsTable, 'taskPages' | 'outputPages' | 'output'>,
  historyKey: string,
  run: RunSummary,
): ResultsSource {
  const runId = run.runId
  const idsByRow = new Map<number, string[]>()
  const ports: string[] = []
  const tasks = noTasks()
  let lastRow = -1
  for (const page of table.outputPages(historyKey, runId))
    for (const artifact of page) {
      if (!ports.includes(portOf(artifact))) ports.push(portOf(artifact))
      const ids = idsByRow.get(artifact.sourceRowIndex) ?? []
      ids.push(artifact.artifactId)
      idsByRow.set(artifact.sourceRowIndex, ids)
      lastRow = Math.max(lastRow, artifact.sourceRowIndex)
    }
  for (const page of table.taskPages(historyKey, runId))
    for (const task of page) {
      countTask(tasks, task)
      lastRow = Math.max(lastRow, task.sourceRowIndex)
    }
  const outputsOf = (index: number): Artifact[] =>
    (idsByRow.get(index) ?? []).flatMap((id) => table.output(historyKey, runId, id) ?? [])
  return {
    run,
    ports,
    lastRow,
    tasks,
    *rows(count) {
      const pages = table.taskPages(historyKey, runId)
      let page: RunTask[] = []
      let at = 0
      const nextTask = (): RunTask | undefined => {
        if (at >= page.length) {
          const next = pages.next()
          if (next.done) return undefined
          page = next.value
          at = 0
        }
        return page[at]
      }
      for (let index = 0; index < count; index += 1) {
        // Tasks come in row order; a row with two keeps the last, as a map of the detail would.
        let task: RunTask | undefined
        for (let t = nextTask(); t && t.sourceRowIndex <= index; t = nextTask()) {
          if (t.sourceRowIndex === index) task = t
          at += 1
        }
        yield { task, outputs: outputsOf(index) }
      }
    },
  }
}
