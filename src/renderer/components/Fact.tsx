import type { ReactNode } from 'react'

/** One labelled fact in a `dl.facts` list; `tone` colours the value (e.g. "bad" for failures). */
export function Fact(props: { label: string; value: ReactNode; tone?: string }) {
  return (
    <div className="fact">
      <dt>{props.label}</dt>
      <dd className={props.tone ? `tone-${props.tone}` : undefined}>{props.value}</dd>
    </div>
  )
}
