import { memo, useCallback, useEffect, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { RunSummary } from '../../shared/contract'
import { formatUnixTime, runCostText, runDoneFraction, runProgressText } from '../../shared/format'
import { isTerminalStatus } from '../../shared/contract'
import { useSaves, useStores } from '../stores/context'
import { saveText } from '../stores/saves-store'
import { StatusBadge } from './StatusBadge'

const ROW_HEIGHT = 60
const rowHeight = () => ROW_HEIGHT
/** Ask for the next page when the last rows come within this many rows of the bottom. */
const END_MARGIN = 10

/**
 * The runs as a virtualized table (TanStack Virtual): a fixed scroll container, a sticky header,
 * and only the visible rows in the page, placed by transform. Scrolling near the end asks for
 * older runs (onEndReached); a run's name opens its detail.
 */
export function RunsTable(props: {
  runs: RunSummary[]
  unitLabel: string
  environment: string
  onOpen: (runId: string) => void
  onEndReached?: () => void
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const now = useNow(30_000)
  // Stable callbacks: TanStack Virtual works out every row's place again when they change.
  const runs = props.runs
  const getItemKey = useCallback((index: number) => runs[index]?.runId ?? index, [runs])
  const virtualizer = useVirtualizer({
    count: props.runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: rowHeight,
    overscan: 8,
    getItemKey,
  })
  const items = virtualizer.getVirtualItems()
  const lastIndex = items.at(-1)?.index ?? -1
  const { onEndReached } = props
  const count = props.runs.length
  useEffect(() => {
    if (onEndReached && count > 0 && lastIndex >= count - END_MARGIN) onEndReached()
  }, [lastIndex, count, onEndReached])

  return (
    <div
      ref={scroller}
      className="table-scroll"
      tabIndex={0}
      role="region"
      aria-label="Runs table, scrollable"
    >
      <table className="runs-table" aria-rowcount={props.runs.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col">Cost</th>
            <th scope="col">Outputs</th>
          </tr>
        </thead>
        <tbody style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {items.map((item) => {
            const run = props.runs[item.index]
            if (!run) return null
            return (
              <RunRow
                key={item.key}
                run={run}
                index={item.index}
                start={item.start}
                size={item.size}
                now={now}
                unitLabel={props.unitLabel}
                environment={props.environment}
                onOpen={props.onOpen}
              />
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/**
 * One run's row. Memoized: scrolling moves rows (a new `start`) and adds a few; the others are
 * not rendered again, which keeps every frame short with thousands of runs.
 */
const RunRow = memo(function RunRow(props: {
  run: RunSummary
  index: number
  start: number
  size: number
  now: number
  unitLabel: string
  environment: string
  onOpen: (runId: string) => void
}) {
  const { run, now } = props
  const fraction = runDoneFraction(run)
  const name = run.displayName || run.runId
  const started = run.startedAtUnix || run.createdAtUnix
  return (
    <tr
      data-run-id={run.runId}
      aria-rowindex={props.index + 2}
      style={{ transform: `translateY(${props.start}px)`, height: `${props.size}px` }}
    >
      <td>
        <button
          type="button"
          className="run-name link-button"
          title={`Open ${name}`}
          onClick={() => props.onOpen(run.runId)}
        >
          {name}
        </button>
        <span className="run-sub">
          {[run.templateName || run.market?.skillName, run.inputFilename]
            .filter(Boolean)
            .join(' · ') || run.runId}
          {' · '}
          <time dateTime={started ? new Date(started * 1000).toISOString() : undefined}>
            {formatUnixTime(started, now)}
          </time>
        </span>
      </td>
      <td>
        <StatusBadge status={run.status} />
      </td>
      <td>
        <span className="progress-text">{runProgressText(run)}</span>
        <span
          className="progress"
          role="progressbar"
          aria-label={`Progress of ${name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(fraction * 100)}
        >
          <span className="progress-fill" style={{ width: `${fraction * 100}%` }} />
        </span>
      </td>
      <td className="num">{runCostText(run, props.unitLabel)}</td>
      <td>
        <SaveOutputs run={run} environment={props.environment} />
      </td>
    </tr>
  )
})

/** "Save outputs" for a finished run, then how the save went. */
function SaveOutputs(props: { run: RunSummary; environment: string }) {
  const { saves } = useStores()
  const save = useSaves((s) => s.byRun[props.run.runId])
  const finished = isTerminalStatus(props.run.status) && props.run.completedTasks > 0
  if (!finished && !save) return null
  const text = saveText(save)
  const label = save?.state === 'saved' ? 'Save again' : 'Save outputs'
  return (
    <span className="save-outputs">
      {save?.state !== 'saving' && (
        <button
          type="button"
          className="btn btn-secondary btn-small"
          aria-label={`${label} (${props.run.displayName || props.run.runId})`}
          onClick={() => void saves.getState().save(props.environment, props.run.runId)}
        >
          {label}
        </button>
      )}
      {text && (
        <span
          className={`save-text${save?.state === 'failed' ? ' save-failed' : ''}`}
          role="status"
          title={save?.state === 'saved' ? save.folder : undefined}
        >
          {text}
        </span>
      )}
    </span>
  )
}

/** The current time, refreshed now and then so "2 min ago" stays true. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs)
    return () => window.clearInterval(timer)
  }, [intervalMs])
  return now
}
