// The window's composition root: picks the Bridge transport, creates one store per domain,
// connects pushed events to the stores, and renders the app.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { connectBridge } from './bridge'
import { toFileRef } from './bridge/files'
import { downloadBytes } from './prepare/download'
import { themeAttribute } from './stores/settings-store'
import { createStores } from './stores/create-stores'
import { StoresContext } from './stores/context'
import { App } from './components/App'
// The styles, one file per part of the window, in cascade order (later files win ties).
import './styles/theme-and-layout.css'
import './styles/chrome.css'
import './styles/runs.css'
import './styles/run-detail.css'
import './styles/settings.css'
import './styles/new-run.css'
import './styles/new-run-send.css'
import './styles/compare.css'
import './styles/batch.css'
import './styles/shell.css'

const bridge = connectBridge(window)
const stores = createStores(bridge, {
  toFileRef: (file) => toFileRef(bridge, file),
  download: (file) => downloadBytes(document, file),
})

// The theme: the system's until the user picks one in Settings (kept by the engine).
const applyTheme = () => {
  const theme = themeAttribute(stores.settings.getState().settings)
  if (theme) document.documentElement.dataset.theme = theme
  else delete document.documentElement.dataset.theme
}
stores.settings.subscribe(applyTheme)
void stores.settings.getState().load()

bridge.api.on('environmentsChanged', (list) => stores.environments.getState().apply(list))
bridge.api.on('runsUpdated', (update) => stores.runs.getState().applyUpdate(update))
bridge.api.on('runsReachability', (update) => stores.runs.getState().applyReachability(update))
bridge.api.on('checkProgress', (update) => stores.prepare.getState().applyProgress(update))
bridge.api.on('uploadProgress', (update) => stores.prepare.getState().applyUploadProgress(update))
bridge.api.on('submissionUpdated', (update) =>
  stores.prepare.getState().applySubmissionUpdate(update),
)
bridge.api.on('downloadProgress', (update) => {
  stores.saves.getState().applyProgress(update)
  stores.runDetail.getState().applyProgress(update)
})
bridge.api.on('runsUpdated', (update) => stores.runDetail.getState().applyRunsUpdate(update))
bridge.api.on('runDetailUpdated', (update) => stores.runDetail.getState().applyDetailUpdate(update))
bridge.api.on('runDetailChanged', (change) => stores.runDetail.getState().applyDetailChange(change))
bridge.api.on('runEnded', (event) => stores.runDetail.getState().applyRunEnded(event))
bridge.api.on('outputsSaved', (result) => stores.saves.getState().applyAutoSaved(result))
bridge.onConnectionChange((state) => {
  const previous = stores.app.getState().connection
  stores.app.getState().setConnection(state)
  // After the engine comes back, catch up once (events sent meanwhile were missed).
  if (state === 'open' && previous === 'closed') {
    void stores.environments.getState().load()
    void stores.runs.getState().refresh()
    void stores.runDetail.getState().reconnected()
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
