import { useEffect, useState } from 'react'
import type { EnvironmentView } from '../../shared/bridge'
import { RunsPanel } from '../components/RunsPanel'
import { BatchPage, RunDetail } from '../components/lazy-screens'
import { Loading } from '../components/on-demand'
import { useNav, useStores } from '../stores/context'

/**
 * The environment's runs; a run opened from anywhere shows its detail here. A run belongs to the
 * environment it was opened in: switching environment goes back to the new one's list rather
 * than asking the new environment for a run it does not have. A run's batch (its sheet across
 * its runs) opens here too, over the run it was opened from.
 */
export function RunsScreen(props: { env: EnvironmentView }) {
  const { nav } = useStores()
  const openRunId = useNav((s) => s.openRunId)
  const openBatchOf = useNav((s) => s.openBatchOf)
  const [openedIn, setOpenedIn] = useState(props.env.name)
  const switched = openedIn !== props.env.name

  useEffect(() => {
    if (!switched) return
    nav.getState().closeRun()
    setOpenedIn(props.env.name)
  }, [switched, nav, props.env.name])

  if (openBatchOf && !switched)
    return (
      <Loading>
        <BatchPage key={openBatchOf} env={props.env} runId={openBatchOf} />
      </Loading>
    )
  if (openRunId && !switched) {
    return (
      <Loading>
        <RunDetail key={openRunId} env={props.env} runId={openRunId} />
      </Loading>
    )
  }
  return <RunsPanel env={props.env} />
}
