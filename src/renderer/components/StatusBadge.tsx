import { statusLabel, statusTone } from '../../shared/format'

/** A run or task status. Unknown statuses are shown exactly as the service sent them. */
export function StatusBadge(props: { status: string }) {
  const tone = statusTone(props.status)
  return (
    <span
      className={`badge badge-${tone}`}
      title={tone === 'unknown' ? 'Status as reported by the service' : undefined}
      data-status={props.status}
    >
      <span className="badge-dot" aria-hidden="true" />
      {statusLabel(props.status)}
    </span>
  )
}
