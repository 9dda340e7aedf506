// One store per domain over one Bridge: the window's (main.tsx) and the component tests' are
// made here, so a test renders a screen with the stores the app really has.
import type { UiBridge } from '../bridge'
import { createAppStore } from './app-store'
import { createBatchStore } from './batch-store'
import type { Stores } from './context'
import { createCreatorStore } from './creator-store'
import { createEnvironmentsStore } from './environments-store'
import { createHistoryStore } from './history-store'
import { createNavStore } from './nav-store'
import { createPrepareStore, type PrepareDeps } from './prepare/prepare-store'
import { createRunDetailStore } from './run-detail/run-detail-store'
import { createRunSummariesStore } from './run-summaries-store'
import { createRunsStore } from './runs-store'
import { createSavesStore } from './saves-store'
import { createSettingsStore } from './settings-store'

export function createStores(bridge: UiBridge, prepare: Omit<PrepareDeps, 'api'>): Stores {
  const { api } = bridge
  // The runs list and the open run share one cache of run summaries.
  const runSummaries = createRunSummariesStore()
  const saves = createSavesStore(api)
  return {
    bridge,
    app: createAppStore(api),
    environments: createEnvironmentsStore(api),
    runSummaries,
    // The runs list tells the saves what the history knows was saved.
    runs: createRunsStore(api, runSummaries, saves),
    saves,
    nav: createNavStore(),
    prepare: createPrepareStore({ api, ...prepare }),
    runDetail: createRunDetailStore(api, runSummaries),
    settings: createSettingsStore(api),
    history: createHistoryStore(api),
    creator: createCreatorStore(api),
    batch: createBatchStore(api),
  }
}
