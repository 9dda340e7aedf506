import { useEffect, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { RunSummary } from '../../shared/contract'
import { formatUnixTime, runCostText, runDoneFraction, runProgressText } from '../../shared/format'
import { isTerminalStatus } from '../../shared/contract'
import { useSaves, useStores } from '../stores/context'
import { saveText } from '../stores/saves-store'
import { StatusBadge } from './StatusBadge'

const ROW_HEIGHT = 60

/**
 * The runs as a virtualized table (TanStack Virtual): a fixed scroll container, a sticky header,
 * and only the visible rows in the page, placed by transform.
 */
export function RunsTable(props: { runs: RunSummary[]; unitLabel: string; environment: string }) {
  const scroller = useRef<HTMLDivElement>(null)
  const now = useNow(30_000)
  const virtualizer = useVirtualizer({
    count: props.runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => props.runs[index]?.runId ?? index,
  })

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
            <th scope="col">Started</th>
            <th scope="col">Outputs</th>
          </tr>
        </thead>
        <tbody style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {virtualizer.getVirtualItems().map((item) => {
            const run = props.runs[item.index]
            if (!run) return null
            const fraction = runDoneFraction(run)
            return (
              <tr
                key={item.key}
                data-run-id={run.runId}
                aria-rowindex={item.index + 2}
                style={{ transform: `translateY(${item.start}px)`, height: `${item.size}px` }}
              >
                <td>
                  <span className="run-name">{run.displayName || run.runId}</span>
                  <span className="run-sub">
                    {[run.templateName || run.market?.skillName, run.inputFilename]
                      .filter(Boolean)
                      .join(' · ') || run.runId}
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
                    aria-label={`Progress of ${run.displayName || run.runId}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(fraction * 100)}
                  >
                    <span className="progress-fill" style={{ width: `${fraction * 100}%` }} />
                  </span>
                </td>
                <td className="num">{runCostText(run, props.unitLabel)}</td>
                <td>
                  <time
                    dateTime={
                      run.createdAtUnix
                        ? new Date(run.createdAtUnix * 1000).toISOString()
                        : undefined
                    }
                  >
                    {formatUnixTime(run.startedAtUnix || run.createdAtUnix, now)}
                  </time>
                </td>
                <td>
                  <SaveOutputs run={run} environment={props.environment} />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/** "Save outputs" for a finished run, then how the save went. */
function SaveOutputs(props: { run: RunSummary; environment: string }) {
  const { saves } = useStores()
  const save = useSaves((s) => s.byRun[props.run.runId])
  const finished = isTerminalStatus(props.run.status) && props.run.completedTasks > 0
  if (!finished && !save) return null
  const text = saveText(save)
  return (
    <span className="save-outputs">
      {save?.state !== 'saving' && (
        <button
          type="button"
          className="btn btn-secondary btn-small"
          aria-label={`Save the outputs of ${props.run.displayName || props.run.runId}`}
          onClick={() => void saves.getState().save(props.environment, props.run.runId)}
        >
          {save?.state === 'saved' ? 'Save again' : 'Save outputs'}
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
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs)
    return () => window.clearInterval(timer)
  }, [intervalMs])
  return now
}
