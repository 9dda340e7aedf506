import { useStores } from '../stores/context'

/** Said once rows of a run were sent again (a retry or a redo): the new run, opened in one click. */
export function SentAsNewRun({ runId }: { runId: string }) {
  const { nav } = useStores()
  return (
    <span className="save-text" role="status">
      Sent as a new run.{' '}
      <button
        type="button"
        className="link-button"
        data-run-id={runId}
        onClick={() => nav.getState().openRun(runId)}
      >
        Open it
      </button>
    </span>
  )
}
