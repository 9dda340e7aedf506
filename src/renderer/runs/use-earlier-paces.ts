import { useMemo, useState } from 'react'
import type { PaceSample } from '../../shared/format'
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { useStores } from '../stores/context'
import { useLatestAnswer } from '../components/use-latest-answer'

type Targeted = Pick<RunSummary, 'status' | 'templateKey' | 'market'>

/**
 * The paces of earlier runs this computer's history holds, for the templates and listings of the
 * runs still going: what their time left goes by before two of their rows are done. Asked again
 * only when that set of templates and listings changes; none while no run is going.
 */
export function useEarlierPaces(environment: string, runs: readonly Targeted[]): PaceSample[] {
  const { bridge } = useStores()
  const [samples, setSamples] = useState<PaceSample[]>([])
  const wanted = useMemo(() => {
    const templateKeys = new Set<string>()
    const listingIds = new Set<string>()
    for (const run of runs) {
      if (isTerminalStatus(run.status)) continue
      if (run.market?.listingId) listingIds.add(run.market.listingId)
      else if (run.templateKey) templateKeys.add(run.templateKey)
    }
    // A string, so the effect below runs when the set changes, not when the runs move.
    return JSON.stringify([
      [...templateKeys].sort().slice(0, 50),
      [...listingIds].sort().slice(0, 50),
    ])
  }, [runs])
  useLatestAnswer(
    () => {
      const [templateKeys, listingIds] = JSON.parse(wanted) as [string[], string[]]
      if (templateKeys.length === 0 && listingIds.length === 0) return null
      return (
        bridge.api
          .earlierPaces({ environment, templateKeys, listingIds })
          .then((view) => view.samples)
          // Without the history's figures the time left comes from the runs fetched alone.
          .catch(() => [])
      )
    },
    setSamples,
    [bridge, environment, wanted],
  )
  return samples
}
