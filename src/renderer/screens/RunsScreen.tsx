import type { EnvironmentView } from '../../shared/bridge'
import { RunsPanel } from '../components/RunsPanel'
import { RunDetail } from '../runs/RunDetail'
import { useNav } from '../stores/context'

/** The environment's runs; a run opened from anywhere shows its detail here. */
export function RunsScreen(props: { env: EnvironmentView }) {
  const openRunId = useNav((s) => s.openRunId)
  if (openRunId) return <RunDetail key={openRunId} env={props.env} runId={openRunId} />
  return <RunsPanel env={props.env} />
}
