import type { MonthlyLimitView } from '../../shared/bridge'

/**
 * Where this month stands against the environment's monthly limit, on the confirm step: said
 * from 80% of the limit on, and when the send would pass it (then confirming is refused).
 */
export function MonthlyLimitNote(props: { limit: MonthlyLimitView }) {
  if (!props.limit.nearly && !props.limit.over) return null
  return (
    <p className={props.limit.over ? 'prep-note field-error' : 'prep-note'} role="note">
      {props.limit.words}
    </p>
  )
}
