/** A labelled progress bar; `fraction` runs from 0 to 1 and is shown to screen readers as %. */
export function ProgressBar(props: { label: string; fraction: number; large?: boolean }) {
  const percent = Math.min(100, Math.max(0, props.fraction * 100))
  return (
    <span
      className={props.large ? 'progress progress-large' : 'progress'}
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
    >
      <span className="progress-fill" style={{ width: `${percent}%` }} />
    </span>
  )
}
