import { runOutcome, statusLabel, statusTone, type RunCounters } from '../../shared/format'

/**
 * A run or task status. Given a run's counters, says how the run ended ("Finished with 1 failed
 * (2 of 3 succeeded)") rather than the bare status. Unknown statuses are shown exactly as the
 * service sent them.
 */
export function StatusBadge(props: { status: string; run?: RunCounters }) {
  const outcome = props.run
    ? runOutcome(props.run)
    : { label: statusLabel(props.status), tone: statusTone(props.status) }
  const { tone } = outcome
  return (
    <span
      className={`badge badge-${tone}`}
      title={tone === 'unknown' ? 'Status as reported by the service' : undefined}
      data-status={props.status}
    >
      <span className="badge-dot" aria-hidden="true" />
      <span className="badge-label">{outcome.label}</span>
    </span>
  )
}
