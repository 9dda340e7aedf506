import type { RunOverview } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { useRunDetail, useStores } from '../stores/context'
import { ConfirmSubmission } from '../prepare/ConfirmSubmission'
import { FixFailedRows } from './FixFailedRows'
import { SentAsNewRun } from './SentAsNewRun'
import { plural } from '../../shared/format/amounts'
import { useFailedRowsLeft } from './run-batch'

/**
 * "Retry failed rows": a new run of only the failed rows, with the same confirmation as a new
 * run (rows, cost, cap) before anything is sent. Only for runs submitted from this device: the
 * history keeps their rows. Rows sent again since and succeeded are not offered; with none left,
 * it says so and offers no send.
 */
export function RetryFailed(props: { overview: RunOverview }) {
  const { runDetail, nav } = useStores()
  const retry = useRunDetail((s) => s.retry)
  const { run } = props.overview.detail
  // Until the batch answers, the run's own failed rows are offered.
  const left = useFailedRowsLeft(props.overview) ?? run.failedTasks
  if (run.failedTasks === 0) return null
  if (!props.overview.fromThisDevice)
    return (
      <p className="card-sub outputs-action">
        {plural(run.failedTasks, 'row')} failed. Only runs submitted from this computer can be
        retried here: the rows are kept where they were sent from.
      </p>
    )
  if (left === 0 && retry.state !== 'sent')
    return (
      <p className="card-sub outputs-action" data-testid="nothing-to-retry">
        {run.failedTasks === 1
          ? 'The row that failed here was sent again since: nothing is left to retry. The sheet’s page shows its latest result.'
          : `The ${plural(run.failedTasks, 'row')} that failed here were sent again since: nothing is left to retry. The sheet’s page shows their latest results.`}
      </p>
    )
  return (
    <div className="outputs-action">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={['planning', 'fixing', 'confirming'].includes(retry.state)}
        onClick={() => void runDetail.getState().planRetry()}
      >
        {retry.state === 'planning' ? 'Preparing the retry…' : 'Retry failed rows'}
      </button>
      <span className="save-text">
        {left < run.failedTasks
          ? `${plural(left, 'row')} of the ${run.failedTasks} that failed ${left === 1 ? 'has' : 'have'} not succeeded since; a retry is a new run of only ${left === 1 ? 'that one' : 'those'}, fixed first if you like.`
          : `${plural(run.failedTasks, 'row')} failed; a retry is a new run of only those, fixed first if you like.`}
      </span>
      {retry.state === 'failed' && (
        <ErrorNotice
          error={retry.error}
          onRetry={() => void runDetail.getState().planRetry()}
          onDismiss={() => runDetail.getState().cancelRetry()}
        />
      )}
      {retry.state === 'sent' && <SentAsNewRun runId={retry.runId} />}
      {retry.state === 'fixing' && <FixFailedRows />}
      {retry.state === 'confirming' && (
        <ConfirmSubmission
          plan={retry.plan}
          {...(retry.editedRows
            ? { rowsNote: `${plural(retry.editedRows, 'row')} edited by you before sending` }
            : {})}
          sending={retry.sending}
          error={retry.error}
          onConfirm={(choice) => void runDetail.getState().confirmRetry(choice)}
          onCancel={() => runDetail.getState().cancelRetry()}
          onOpenRun={(runId) => {
            runDetail.getState().cancelRetry()
            nav.getState().openRun(runId)
          }}
        />
      )}
    </div>
  )
}
