/**
 * What can be run in the environment on screen (the Bridge's listCatalog), asked again when the
 * environment changes and after a run was sent. When it cannot be had, the list is empty and the
 * templates the prepare store knows are shown alone.
 */
import { useState } from 'react'
import type { CatalogEntry } from '../../shared/bridge'
import { useStores, useFields } from '../stores/context'
import { useLatestAnswer } from '../components/use-latest-answer'

export interface CatalogState {
  items: CatalogEntry[]
  unitLabel: string
  loaded: boolean
}

const EMPTY: CatalogState = { items: [], unitLabel: 'credits', loaded: false }

export function useCatalog(): CatalogState {
  const { bridge } = useStores()
  const { environment, sent } = useFields('prepare', 'environment', 'sent')
  const [state, setState] = useState<CatalogState>(EMPTY)
  useLatestAnswer(
    () => {
      if (!environment) return null
      setState(EMPTY)
      return bridge.api.listCatalog({ environment }).then(
        (view) => ({ items: view.items, unitLabel: view.unitLabel, loaded: true }),
        () => ({ ...EMPTY, loaded: true }),
      )
    },
    setState,
    [bridge, environment, sent],
  )
  return state
}
