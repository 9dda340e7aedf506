/**
 * What can be run in the environment on screen (the Bridge's listCatalog), asked again when the
 * environment changes and after a run was sent. When it cannot be had, the list is empty and the
 * templates the prepare store knows are shown as before.
 */
import { useEffect, useState } from 'react'
import type { CatalogEntry } from '../../shared/bridge'
import { usePrepare, useStores } from '../stores/context'

export interface CatalogState {
  items: CatalogEntry[]
  unitLabel: string
  loaded: boolean
}

const EMPTY: CatalogState = { items: [], unitLabel: 'credits', loaded: false }

export function useCatalog(): CatalogState {
  const { bridge } = useStores()
  const environment = usePrepare((s) => s.environment)
  const sent = usePrepare((s) => s.sent)
  const [state, setState] = useState<CatalogState>(EMPTY)
  useEffect(() => {
    if (!environment) return
    let current = true
    setState(EMPTY)
    void (async () => {
      try {
        const view = await bridge.api.listCatalog({ environment })
        if (current) setState({ items: view.items, unitLabel: view.unitLabel, loaded: true })
      } catch {
        if (current) setState({ ...EMPTY, loaded: true })
      }
    })()
    return () => {
      current = false
    }
  }, [bridge, environment, sent])
  return state
}
