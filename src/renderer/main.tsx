// The window's composition root: picks the Bridge transport, creates one store per domain,
// connects pushed events to the stores, and renders the app.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { connectBridge } from './bridge'
import { createAppStore } from './stores/app-store'
import { createEnvironmentsStore } from './stores/environments-store'
import { createRunsStore } from './stores/runs-store'
import { createSavesStore } from './stores/saves-store'
import { StoresContext, type Stores } from './stores/context'
import { App } from './components/App'
import './styles.css'

const bridge = connectBridge(window)
const stores: Stores = {
  bridge,
  app: createAppStore(bridge.api),
  environments: createEnvironmentsStore(bridge.api),
  runs: createRunsStore(bridge.api),
  saves: createSavesStore(bridge.api),
}

bridge.api.on('environmentsChanged', (list) => stores.environments.getState().apply(list))
bridge.api.on('runsUpdated', (update) => stores.runs.getState().applyUpdate(update))
bridge.api.on('downloadProgress', (update) => stores.saves.getState().applyProgress(update))
bridge.onConnectionChange((state) => {
  const previous = stores.app.getState().connection
  stores.app.getState().setConnection(state)
  // After the engine comes back, catch up once (events sent meanwhile were missed).
  if (state === 'open' && previous === 'closed') {
    void stores.environments.getState().load()
    void stores.runs.getState().refresh()
  }
})

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <StoresContext.Provider value={stores}>
        <App />
      </StoresContext.Provider>
    </StrictMode>,
  )
}
