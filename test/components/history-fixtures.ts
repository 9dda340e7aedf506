// One submission as History lists it, for the history component tests: a finished run of the
// Sandbox's row-echo template sent from orders.xlsx; each test changes what it looks at.
import type { HistoryEntryView } from '../../src/shared/bridge'

export function historyEntry(over: Partial<HistoryEntryView> = {}): HistoryEntryView {
  return {
    id: 1,
    environment: 'Sandbox',
    target: 'row-echo',
    targetKind: 'template',
    inputFilename: 'orders.xlsx',
    rows: 3,
    state: 'accepted',
    error: '',
    runId: 'run-1',
    runStatus: 'succeeded',
    runName: 'Orders',
    runCounts: { totalTasks: 3, completedTasks: 3, failedTasks: 0, cancelledTasks: 0 },
    costT: 12,
    costIsEstimate: false,
    unitLabel: 'credits',
    downloadedFiles: 2,
    retryOfRunId: '',
    retries: [],
    createdAtMs: Date.UTC(2026, 0, 5, 10, 0),
    ...over,
  }
}
