import { memo, useCallback, useMemo, useState } from 'react'
import type { RunOverview } from '../../shared/bridge'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { orderTasks } from './run-view'
import { RowsTable, WindowedRowsTable } from './task-rows'
import { CardHead } from '../components/CardParts'
import type { ConfirmChoice } from '../../shared/bridge'
import { RedoOutcome } from '../redo/RedoRows'
import { useRedo } from '../redo/use-redo'
import { plural } from '../../shared/format/amounts'

/** The number a row is named by when redone: its sheet row, else its place in the submission. */
const rowNumberOf = (index: number, rowNumbers: number[] | null) =>
  rowNumbers ? (rowNumbers[index] ?? index + 1) : index + 1

/**
 * Drawn again only when what it shows changed: a big run's summary changes at every look (each
 * second), its tasks only with a push of what changed.
 */
export const TasksCard = memo(
  TasksCardView,
  (a, b) =>
    a.overview.detail.tasks === b.overview.detail.tasks &&
    a.overview.rows === b.overview.rows &&
    a.overview.rowNumbers === b.overview.rowNumbers &&
    a.overview.environment === b.overview.environment &&
    a.overview.fromThisDevice === b.overview.fromThisDevice &&
    a.overview.detail.run.runId === b.overview.detail.run.runId &&
    a.overview.detail.run.status === b.overview.detail.run.status,
)

/**
 * The run's rows: status and error of each, failed ones first. Once a run sent from this
 * computer has ended, each row can be marked "Redo" and the marked ones sent again as a new run.
 */
function TasksCardView(props: { overview: RunOverview }) {
  // A big run's rows stay in the engine: its counts here, its rows asked a window at a time.
  const windowed = props.overview.rows
  const tasks = props.overview.detail.tasks
  const count = windowed?.tasks ?? tasks.length
  const failed = windowed?.failed ?? tasks.filter((t) => t.status === 'failed').length
  const [onlyFailed, setOnlyFailed] = useState(false)
  const shown = useMemo(() => orderTasks(tasks, onlyFailed), [tasks, onlyFailed])
  const rowNumbers = props.overview.rowNumbers
  const redoable =
    props.overview.fromThisDevice && isTerminalStatus(props.overview.detail.run.status)
  const marks = useRedoMarks(props.overview)
  return (
    <section className="card" aria-labelledby="tasks-title">
      <CardHead
        titleId="tasks-title"
        title="Rows"
        sub={
          <>
            {plural(count, 'row')}
            {failed ? `, ${failed} failed (shown first)` : ''}
            {redoable ? '. Mark the rows whose outputs you want made again.' : ''}
          </>
        }
        level={3}
      >
        <div className="toolbar">
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
          {redoable && <RedoMarkedButton marks={marks} />}
        </div>
      </CardHead>
      {redoable && (
        <RedoOutcome
          redo={marks.redo}
          onConfirm={(choice) => void marks.confirm(choice)}
          onClose={marks.close}
        />
      )}
      {count === 0 ? (
        <p className="card-sub">No rows have started yet.</p>
      ) : windowed ? (
        <WindowedRowsTable
          overview={props.overview}
          onlyFailed={onlyFailed}
          marks={redoable ? marks : null}
        />
      ) : (
        <RowsTable shown={shown} rowNumbers={rowNumbers} marks={redoable ? marks : null} />
      )}
    </section>
  )
}

/** The rows marked "Redo" (by index in the run) and the redo they make; sent, the marks clear. */
function useRedoMarks(overview: RunOverview) {
  const [marked, setMarked] = useState<ReadonlySet<number>>(new Set())
  const { redo, plan, confirm, close, busy } = useRedo(overview)
  const toggle = useCallback(
    (index: number) =>
      setMarked((now) => {
        const next = new Set(now)
        if (!next.delete(index)) next.add(index)
        return next
      }),
    [],
  )
  const send = () =>
    void plan([...marked].sort((a, b) => a - b).map((i) => rowNumberOf(i, overview.rowNumbers)))
  const confirmAndClear = async (choice: ConfirmChoice) => {
    if (await confirm(choice)) setMarked(new Set())
  }
  return { marked, toggle, send, redo, confirm: confirmAndClear, close, busy }
}

function RedoMarkedButton(props: { marks: ReturnType<typeof useRedoMarks> }) {
  const { marked, redo, busy, send } = props.marks
  const count = marked.size
  return (
    <button
      type="button"
      className="btn btn-secondary"
      disabled={count === 0 || busy}
      onClick={send}
    >
      {redo.state === 'planning'
        ? 'Preparing…'
        : count === 0
          ? 'Redo marked rows'
          : `Redo ${count} ${count === 1 ? 'row' : 'rows'}`}
    </button>
  )
}
