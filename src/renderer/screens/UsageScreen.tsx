import type { EnvironmentView } from '../../shared/bridge'

export function UsageScreen(props: { env: EnvironmentView }) {
  return <section className="card">{props.env.name}</section>
}
