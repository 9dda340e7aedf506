/**
 * The run's rows as a virtualized table: every row at once for a run the page holds whole, or a
 * window at a time for a big one (asked from the engine as the list scrolls). Both draw a row
 * the same way; with marks, a row a run can redo has its "Redo" box first.
 */
import { memo, useCallback, useMemo } from 'react'
import type { RunOverview, RunRowsFilter } from '../../shared/bridge'
import type { RunTask } from '../../shared/contract'
import { StatusBadge } from '../components/StatusBadge'
import { VirtualRow, VirtualTable, type RowPlace } from '../components/VirtualTable'
import { useRunDetail, useStores } from '../stores/context'
import { taskRowLabel } from './run-view'
import { useRunWindow } from './use-run-window'

const TASK_ROW = 52
const taskKey = (task: RunTask) => task.taskId
const positionKey = (index: number) => String(index)

/** The rows marked "Redo", by their index in the run. */
export interface RedoMarks {
  marked: ReadonlySet<number>
  toggle(index: number): void
}

/**
 * A big run's table draws 2 rows beyond the view (as the batch page does): a drag of its scroll
 * bar shows a new screen of rows every frame, each drawn row work in that frame.
 */
function tableProps(marks: RedoMarks | null, overscan = 10) {
  return {
    rowHeight: TASK_ROW,
    short: true,
    overscan,
    label: 'Rows of the run, scrollable',
    tableClassName: marks ? 'tasks-table tasks-table-redo' : 'tasks-table',
    columns: marks
      ? ['Redo', 'Row', 'Status', 'Error', 'Outputs']
      : ['Row', 'Status', 'Error', 'Outputs'],
  }
}

/**
 * One row, or "Loading…" in the same cells while its page is on its way (so its nodes are kept
 * when the page comes); drawn again only when its task, place or mark changed.
 */
const TaskRow = memo(function TaskRow(props: {
  task: RunTask | undefined
  place: RowPlace
  rowNumbers: number[] | null
  marks: RedoMarks | null
}) {
  const { place, rowNumbers, marks } = props
  if (!props.task)
    return (
      <VirtualRow place={place} data-loading="">
        {marks && <td />}
        <td className="muted">Loading…</td>
        <td />
        <td />
        <td />
      </VirtualRow>
    )
  const task = props.task
  return (
    <VirtualRow data-task-id={task.taskId} place={place}>
      {marks && (
        <td>
          {task.sourceRowIndex >= 0 && (
            <input
              type="checkbox"
              className="redo-mark"
              aria-label={`Redo ${taskRowLabel(task.sourceRowIndex, rowNumbers).toLowerCase()}`}
              checked={marks.marked.has(task.sourceRowIndex)}
              onChange={() => marks.toggle(task.sourceRowIndex)}
            />
          )}
        </td>
      )}
      <td>{taskRowLabel(task.sourceRowIndex, rowNumbers)}</td>
      <td>
        <StatusBadge status={task.status} />
      </td>
      <td
        className={task.errorMessage ? 'task-error' : 'muted'}
        title={task.errorMessage || undefined}
      >
        {task.errorMessage || '—'}
      </td>
      <td className="num">{task.artifactCount}</td>
    </VirtualRow>
  )
})

/** Every row of a run the page holds whole, in the order given. */
export function RowsTable(props: {
  shown: RunTask[]
  rowNumbers: number[] | null
  marks: RedoMarks | null
}) {
  const { shown, rowNumbers, marks } = props
  return (
    <VirtualTable
      {...tableProps(marks)}
      items={shown}
      itemKey={taskKey}
      renderRow={(task, place) => (
        <TaskRow task={task} place={place} rowNumbers={rowNumbers} marks={marks} />
      )}
    />
  )
}

/**
 * A big run's rows, failed first (or the failed alone), asked a page at a time as the list
 * scrolls, and asked again in view at each change the engine pushes.
 */
export function WindowedRowsTable(props: {
  overview: RunOverview
  onlyFailed: boolean
  marks: RedoMarks | null
}) {
  const { overview, onlyFailed, marks } = props
  const { bridge } = useStores()
  const version = useRunDetail((s) => s.rowsVersion)
  const { environment } = overview
  const { runId } = overview.detail.run
  const filter: RunRowsFilter = onlyFailed ? 'failed' : 'all'
  const ask = useCallback(
    async (from: number, count: number) => {
      const answer = await bridge.api.getRunRows({ environment, runId, from, count, filter })
      return { total: answer.total, items: answer.rows }
    },
    [bridge, environment, runId, filter],
  )
  const window = useRunWindow(ask, `${environment}\u0000${runId}\u0000${filter}`, version)
  const counted = onlyFailed ? (overview.rows?.failed ?? 0) : (overview.rows?.tasks ?? 0)
  const total = window.total >= 0 ? window.total : counted
  // Positions only: a row is looked up in its page when drawn.
  const positions = useMemo(() => Array.from({ length: total }, (_, i) => i), [total])
  return (
    <VirtualTable
      {...tableProps(marks, 2)}
      items={positions}
      itemKey={positionKey}
      onRangeChange={window.showRange}
      recycle
      renderRow={(index, place) => (
        <TaskRow
          task={window.at(index)}
          place={place}
          rowNumbers={overview.rowNumbers}
          marks={marks}
        />
      )}
    />
  )
}
