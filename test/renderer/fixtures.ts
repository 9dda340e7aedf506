import type { RunSummary } from '../../src/shared/contract'
import type { EnvironmentView } from '../../src/shared/bridge'

export function runSummary(over: Partial<RunSummary> = {}): RunSummary {
  return {
    runId: 'run-1',
    displayName: 'Run one',
    status: 'running',
    sourceType: 'official_template',
    templateKey: 'echo',
    templateName: 'Echo',
    templateUuid: '',
    definitionHash: '',
    inputFilename: 'rows.xlsx',
    totalTasks: 4,
    completedTasks: 1,
    failedTasks: 0,
    cancelledTasks: 0,
    estimatedCostT: 40,
    actualCostT: 0,
    firstErrorMessage: '',
    createdAtUnix: 1_700_000_000,
    startedAtUnix: 1_700_000_001,
    completedAtUnix: 0,
    updatedAtUnix: 1_700_000_002,
    market: undefined,
    ...over,
  }
}

export function environment(over: Partial<EnvironmentView> = {}): EnvironmentView {
  return {
    name: 'Production',
    baseUrl: 'https://skills.example.com',
    origin: 'https://skills.example.com',
    builtIn: false,
    isDefault: false,
    hasToken: true,
    token: { place: 'saved', label: 'Token saved in the system keychain (Secret Service)' },
    unitLabel: 'credits',
    ...over,
  }
}
