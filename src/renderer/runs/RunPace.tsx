/** Time left and stalls, as the runs list and a run's page show them (words from run-pace). */
import type { RunSummary } from '../../shared/contract'
import { runPace, stalledAdvice, type EarlierPace, type RowMarks } from '../../shared/format'

/**
 * "about 12 min left", or "Stalled" with how long nothing changed; nothing once ended. `brief`
 * (a table row) says a stall in three words, the rest in its tooltip; without it a stall is left
 * to StalledNotice.
 */
export function PaceNote(props: {
  run: RunSummary
  earlier: EarlierPace | null
  /** What the window saw of this run's rows finishing: its own median row time. */
  marks: RowMarks
  nowMs: number
  brief?: boolean
}) {
  const pace = runPace(props.run, props.nowMs, props.earlier, props.marks)
  if (pace.state === 'stalled') {
    if (!props.brief) return null
    const advice = stalledAdvice(pace)
    return (
      <span
        className="pace-note pace-stalled"
        data-pace="stalled"
        title={`${advice.title}. ${advice.body}`}
      >
        Stalled for {Math.max(1, Math.floor(pace.quietMs / 60_000))} min
      </span>
    )
  }
  if (!pace.leftText) return null
  return (
    <span className="pace-note" data-pace={pace.state}>
      {pace.leftText}
    </span>
  )
}

/** On a run's page: what a stall means and what to do, while the run is stalled. */
export function StalledNotice(props: {
  run: RunSummary
  earlier: EarlierPace | null
  marks: RowMarks
  nowMs: number
}) {
  const pace = runPace(props.run, props.nowMs, props.earlier, props.marks)
  if (pace.state !== 'stalled') return null
  const advice = stalledAdvice(pace)
  return (
    <div className="stalled-notice" role="status">
      <strong>{advice.title}</strong>
      <p>{advice.body}</p>
    </div>
  )
}
