/**
 * The history as the app shows it: every submission from this device (the journal), each with
 * what else this device knows about it: its run's latest status and cost (runs seen), the
 * outputs saved here (downloads), the runs that retried it and its follow-ups. Read from the
 * history database only, so it works offline.
 */
import { isTerminalStatus, type RunSummary } from '../../../shared/contract'
import type {
  BatchSendKind,
  HistoryEntryView,
  HistoryPage,
  RunCounts,
} from '../../../shared/bridge'
import type { History } from '../../storage/run-history'
import type { Submission, Submissions } from '../spend/submissions'
import { targetNamer, type NameSources } from './target-names'

export interface HistoryQuery {
  search?: string | undefined
  limit?: number | undefined
}

interface RunSeen {
  summary: RunSummary
  status: string
  name: string
  estimatedCostT: number
  actualCostT: number
  terminal: boolean
  counts: RunCounts
}

function runSeen(history: History, origin: string, runId: string): RunSeen | null {
  const run = history.seenRun(origin, runId)
  if (!run) return null
  return {
    summary: run,
    status: run.status,
    name: run.displayName || run.templateName || '',
    estimatedCostT: run.estimatedCostT,
    actualCostT: run.actualCostT,
    terminal: isTerminalStatus(run.status),
    counts: {
      totalTasks: run.totalTasks,
      completedTasks: run.completedTasks,
      failedTasks: run.failedTasks,
      cancelledTasks: run.cancelledTasks,
    },
  }
}

function entryOf(
  history: History,
  submissions: Pick<Submissions, 'followUpsOf'>,
  submission: Submission,
  unitLabelOf: (environment: string) => string,
  nameOf: ReturnType<typeof targetNamer>,
): HistoryEntryView {
  const seen = runSeen(history, submission.historyKey, submission.runId)
  const downloaded = history.savedFileCount(submission.historyKey, submission.runId)
  const followUps = submissions.followUpsOf(submission.historyKey, submission.runId)
  // A follow-up names its run as a retry does too; it is listed as a follow-up, not a retry.
  const retries = history
    .retriedBy(submission.historyKey, submission.runId)
    .filter((runId) => !followUps.includes(runId))
  // A finished run's cost is what it actually cost (0 is a real amount); before that, the estimate.
  const ended = seen?.terminal ?? false
  const estimate = seen?.estimatedCostT || submission.estimatedCostT || 0
  return {
    id: submission.id,
    environment: submission.environment,
    target: submission.targetId,
    targetKind: submission.targetKind,
    targetName: nameOf(submission, seen?.summary ?? null),
    inputFilename: submission.inputFilename,
    rows: submission.rowCount,
    state: submission.state,
    error: submission.error,
    runId: submission.runId,
    runStatus: seen?.status ?? '',
    runName: seen?.name ?? '',
    runCounts: seen?.counts ?? null,
    costT: ended ? seen!.actualCostT : estimate,
    costIsEstimate: !ended,
    unitLabel: unitLabelOf(submission.environment),
    downloadedFiles: downloaded,
    retryOfRunId: submission.retryOfRunId,
    retries,
    ...(submission.followUpOfRunId ? { followUpOfRunId: submission.followUpOfRunId } : {}),
    ...(submission.batchId ? { batchId: submission.batchId } : {}),
    ...(submission.sendKind ? { sendKind: submission.sendKind as BatchSendKind } : {}),
    ...(followUps.length > 0 ? { followUps } : {}),
    ...(submission.callbackUrl ? { callbackUrl: submission.callbackUrl } : {}),
    createdAtMs: submission.createdAtMs,
  }
}

export function listHistory(
  history: History,
  submissions: Submissions,
  unitLabelOf: (environment: string) => string,
  query: HistoryQuery = {},
  names: Pick<NameSources, 'schemas'> = {},
): HistoryPage {
  const nameOf = targetNamer({ history, ...names })
  const limit = query.limit ?? 200
  const found = submissions.search({
    search: query.search,
    alsoTargets: targetsNamed(submissions, nameOf, query.search),
    limit: limit + 1,
  })
  // A pilot and the rest of its workbook are one batch: each entry names the other runs.
  const batch = (s: Submission) => ({
    batchOfRunId: s.batchOfRunId,
    batchRests: s.runId
      ? submissions.batchRuns(s.historyKey, s.runId).filter((runId) => runId !== s.runId)
      : [],
  })
  const items = found
    .slice(0, limit)
    .map((s) => ({ ...entryOf(history, submissions, s, unitLabelOf, nameOf), ...batch(s) }))
  return { items, more: found.length > limit }
}

/**
 * The most templates and listings a search adds by name (each is three SQL parameters); those
 * sent to most recently come first.
 */
const MAX_NAMED_TARGETS = 300

/**
 * The templates and listings whose names, as History shows them, hold `search` (case aside).
 * Names are known from runs and saved schemas, not from the journal, so they are matched here.
 */
function targetsNamed(
  submissions: Submissions,
  nameOf: ReturnType<typeof targetNamer>,
  search: string | undefined,
) {
  const words = search?.trim().toLocaleLowerCase()
  if (!words) return []
  return submissions
    .targets()
    .filter((target) => nameOf(target, null).toLocaleLowerCase().includes(words))
    .slice(0, MAX_NAMED_TARGETS)
}

/** Whether a run was sent from this computer (the history has it), for run-ended notices. */
export function isOwnRun(
  services: {
    environments: { find(name: string): { name: string } | undefined }
    history: Pick<History, 'isOwnRun'>
  },
  environment: string,
  runId: string,
): boolean {
  const env = services.environments.find(environment)
  return env !== undefined && services.history.isOwnRun(env.name, runId)
}
