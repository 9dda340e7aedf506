import { memo, useMemo, useState } from 'react'
import type { RunOverview } from '../../shared/bridge'
import type { RunTask } from '../../shared/contract'
import { StatusBadge } from '../components/StatusBadge'
import { VirtualRow, VirtualTable } from '../components/VirtualTable'
import { orderTasks, rowLabel } from './run-view'
import { CardHead } from '../components/CardParts'

const TASK_ROW = 52
const taskKey = (task: RunTask) => task.taskId

/**
 * Drawn again only when what it shows changed: a big run's summary changes at every look (each
 * second), its tasks only with a push of what changed.
 */
export const TasksCard = memo(
  TasksCardView,
  (a, b) =>
    a.overview.detail.tasks === b.overview.detail.tasks &&
    a.overview.rowNumbers === b.overview.rowNumbers &&
    a.overview.environment === b.overview.environment &&
    a.overview.detail.run.runId === b.overview.detail.run.runId &&
    a.overview.detail.run.status === b.overview.detail.run.status,
)

/** The run's rows: status and error of each, failed ones first. */
function TasksCardView(props: { overview: RunOverview }) {
  const tasks = props.overview.detail.tasks
  const failed = tasks.filter((t) => t.status === 'failed').length
  const [onlyFailed, setOnlyFailed] = useState(false)
  const shown = useMemo(() => orderTasks(tasks, onlyFailed), [tasks, onlyFailed])
  const rowNumbers = props.overview.rowNumbers
  return (
    <section className="card" aria-labelledby="tasks-title">
      <CardHead
        titleId="tasks-title"
        title="Rows"
        sub={
          <>
            {tasks.length} rows
            {failed ? `, ${failed} failed (shown first)` : ''}
          </>
        }
        level={3}
      >
        {failed > 0 && (
          <label className="check">
            <input
              type="checkbox"
              checked={onlyFailed}
              onChange={(e) => setOnlyFailed(e.target.checked)}
            />
            Only failed rows
          </label>
        )}
      </CardHead>
      {tasks.length === 0 ? (
        <p className="card-sub">No rows have started yet.</p>
      ) : (
        <VirtualTable
          items={shown}
          itemKey={taskKey}
          rowHeight={TASK_ROW}
          short
          overscan={10}
          label="Rows of the run, scrollable"
          tableClassName="tasks-table"
          columns={['Row', 'Status', 'Error', 'Outputs']}
          renderRow={(task, place) => (
            <VirtualRow data-task-id={task.taskId} place={place}>
              <td>{rowLabel(task.sourceRowIndex, rowNumbers)}</td>
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
          )}
        />
      )}
    </section>
  )
}
