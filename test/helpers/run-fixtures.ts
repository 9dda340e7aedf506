// Run fixtures for every test that needs a run, a task, an output or a plan as the service or the Bridge gives them.
import type { Artifact, RunSummary, RunTask } from '../../src/shared/contract'
import type {
  EnvironmentView,
  RunOverview,
  SubmissionPlanView,
  SubmissionView,
} from '../../src/shared/bridge'

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

/**
 * A running row-echo run that started at `t0` (unix seconds) with no row done yet, for the pace
 * and outcome rules that read only its counts and times.
 */
export function runStartedAt(t0: number, over: Partial<RunSummary> = {}): RunSummary {
  return runSummary({
    sourceType: 'template',
    templateKey: 'row-echo',
    templateName: 'Row echo',
    completedTasks: 0,
    createdAtUnix: t0,
    startedAtUnix: t0,
    updatedAtUnix: t0,
    ...over,
  })
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

/** Row `row` of a run (counted from 0), in `status`, with no outputs and no error. */
export function runTask(row: number, status: string, over: Partial<RunTask> = {}): RunTask {
  return {
    taskId: `task-${row}`,
    status,
    sourceRowIndex: row,
    artifactCount: 0,
    errorMessage: '',
    ...over,
  }
}

/** Row `row`'s one text output ("reply N", also at a file address unless `accessUrl` says). */
export function runArtifact(row: number, accessUrl = `https://files.example/a-${row}`): Artifact {
  return {
    artifactId: `a-${row}`,
    taskId: `task-${row}`,
    stepId: 'step',
    portName: 'reply',
    sourceRowIndex: row,
    mimeType: 'text/plain',
    accessUrl,
    inlineText: `reply ${row}`,
    createdAtUnix: 1_700_000_100 + row,
  }
}

/** A run as its detail screen gets it: run-1 of Sandbox, sent from here, rows not read yet. */
export function runOverview(over: Partial<RunOverview> = {}): RunOverview {
  return {
    environment: 'Sandbox',
    unitLabel: 'credits',
    detail: { run: runSummary(), market: undefined, tasks: [], artifacts: [] },
    fromThisDevice: true,
    inputFilename: 'rows.xlsx',
    rowNumbers: null,
    retryOfRunId: '',
    retriedBy: [],
    savedFolder: '',
    savedFiles: 0,
    resultsWorkbook: '',
    ...over,
  }
}

/** A plan of `rows` (sheet rows) of the Sandbox's Echo template at 10 credits a row, valid. */
export function submissionPlan(
  rows: number[],
  over: Partial<SubmissionPlanView> = {},
): SubmissionPlanView {
  return {
    planId: `plan-${rows.join('-')}`,
    environment: 'Sandbox',
    expiresAtMs: Date.now() + 60_000,
    target: { kind: 'template', templateId: 'echo', name: 'Echo' },
    fileName: '',
    rowCount: rows.length,
    totalRows: rows.length,
    rowNumbers: rows,
    rowNumbering: 'spreadsheet',
    pilotRows: null,
    taskFixedFeeT: 10,
    estimateT: 10 * rows.length,
    estimateSource: 'fee',
    learnedFrom: null,
    unitLabel: 'credits',
    terms: '',
    schemaSource: 'template',
    validation: { valid: true, fileErrors: [], rowErrors: [] },
    duplicateOf: null,
    unansweredOf: null,
    confirmRequired: true,
    retryOfRunId: null,
    summary: '',
    ...over,
  }
}

/** What confirmSubmission answers once the service took the run `runId`. */
export function sentAs(runId: string): SubmissionView {
  return { environment: 'Sandbox', clientRequestId: 'c', runId, status: 'queued', againOf: null }
}
