/**
 * The Usage screen's data: the environment's usage (the runs kept open it at once; Refresh reads
 * the service again), and the runs of the period whose bar was chosen.
 */
import { useCallback, useEffect, useState } from 'react'
import type { BridgeErrorInfo, UsagePeriodRunsView, UsageView } from '../../shared/bridge'
import { errorInfo } from '../stores/errors'
import { useStores } from '../stores/context'

export function useUsage(environment: string) {
  const { bridge } = useStores()
  const [view, setView] = useState<UsageView | null>(null)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)
  const [reading, setReading] = useState(false)

  const load = useCallback(
    async (fresh: boolean) => {
      setReading(true)
      try {
        const answer = await bridge.api.usage({ environment, fresh })
        if (answer.environment === environment) {
          setView(answer)
          setError(null)
        }
      } catch (e) {
        setError(errorInfo(e))
      } finally {
        setReading(false)
      }
    },
    [bridge, environment],
  )

  useEffect(() => {
    setView(null)
    // What was kept shows at once; then the service is read again for what changed since.
    void load(false).then(() => load(true))
  }, [load])

  return { view, error, reading, refresh: () => void load(true) }
}

/** The runs of one chosen period, asked when a bar is chosen. */
export function usePeriodRuns(environment: string) {
  const { bridge } = useStores()
  const [period, setPeriod] = useState<string | null>(null)
  const [runs, setRuns] = useState<UsagePeriodRunsView | null>(null)

  useEffect(() => {
    setRuns(null)
    if (!period) return
    let current = true
    void bridge.api
      .usagePeriodRuns({ environment, period })
      .then((answer) => current && setRuns(answer))
      .catch(() => current && setRuns({ period, runs: [] }))
    return () => {
      current = false
    }
  }, [bridge, environment, period])

  return { period, runs, choose: setPeriod }
}
