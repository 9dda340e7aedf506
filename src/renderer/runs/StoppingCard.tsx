import type { RunOverview } from '../../shared/bridge'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { plural } from '../../shared/format/amounts'
import { Card } from '../components/CardParts'
import { taskRowLabel } from './run-view'

/**
 * What can be stopped once a run is sent: nothing, from here. The service has no way to cancel
 * a run, so no button pretends to; while the run is going this says so plainly, and once the
 * service reports cancelled rows it says how many and which.
 */
export function StoppingCard(props: { overview: RunOverview }) {
  const { run, tasks } = props.overview.detail
  const live = !isTerminalStatus(run.status)
  const cancelled = cancelledRows(props.overview)
  if (!live && run.cancelledTasks === 0 && cancelled.length === 0) return null
  const count = Math.max(run.cancelledTasks, cancelled.length)
  return (
    <Card
      titleId="stopping-title"
      level={3}
      title={live ? 'Stopping this run' : 'Cancelled rows'}
      sub={
        live
          ? 'A sent run cannot be stopped from here: the service offers no way to cancel a run, so the rows still waiting will run.'
          : 'A sent run cannot be stopped from here; these rows were cancelled by the service.'
      }
      testId="stopping-card"
    >
      {count > 0 && (
        <p className="card-sub" role="status">
          The service reports {plural(count, 'cancelled row')}
          {cancelled.length > 0 ? `: ${cancelled.join(', ')}` : ''}
          {tasks.length > 0 || props.overview.rows ? ', shown with their status under Rows' : ''}.
        </p>
      )}
    </Card>
  )
}

/** The names of the rows whose task the service reports as cancelled. */
function cancelledRows(overview: RunOverview): string[] {
  return overview.detail.tasks
    .filter((task) => task.status === 'cancelled')
    .map((task) => taskRowLabel(task.sourceRowIndex, overview.rowNumbers))
}
