/**
 * The runs of one batch (a pilot, its rest, the fixed rows sent back...) are one sheet: the
 * results workbook of any of them shows every run's rows on one sheet, in the sheet's row order
 * (results-source.ts), each saying in words which run it came from; the runs' ids go on the Run
 * sheet, their counters and costs added up.
 */
import { sumT } from '../../../shared/format/amounts'
import type { RunSummary } from '../../../shared/contract'
import type { Batches } from '../batch/batches'
import type { SubmissionHead, Submissions } from '../spend/submissions'

/**
 * The runs whose rows make up the sheet of the batch `runId` belongs to (all, a pilot, its rest,
 * the valid rows, the fixed rows sent back, rows chosen), in the order sent; a retry or a redo
 * is a later version of rows already there (row-versions.ts), not a part. Just `runId` when it
 * was sent alone, is itself a retry or redo, or was not sent from this computer.
 */
export function batchRunsOf(
  services: { submissions: Pick<Submissions, 'batchRuns'>; batches?: Pick<Batches, 'sendsOf'> },
  historyKey: string,
  runId: string,
  submission: Pick<SubmissionHead, 'batchId' | 'sendKind' | 'batchOfRunId'> | null,
): string[] {
  if (!submission) return [runId]
  if (submission.batchId && services.batches) {
    if (AGAIN.has(submission.sendKind)) return [runId]
    const runs = services.batches
      .sendsOf(submission.batchId)
      .filter((s) => s.state === 'accepted' && s.runId && !AGAIN.has(s.kind))
      .map((s) => s.runId)
    const parts = [...new Set(runs)]
    return parts.length > 1 && parts.includes(runId) ? parts : [runId]
  }
  const runs = services.submissions.batchRuns(historyKey, submission.batchOfRunId || runId)
  return runs.length > 1 && runs.includes(runId) ? runs : [runId]
}

/** Sends that make a row's later version rather than a part of the sheet. */
const AGAIN = new Set(['retry', 'redo'])

/** A part's kind in a word or two, for the Sent in column. */
const PART_WORDS: Record<string, string> = {
  all: 'All rows',
  pilot: 'Pilot',
  rest: 'Rest',
  valid: 'Valid rows',
  'follow-up': 'Fixed rows',
  chosen: 'Chosen rows',
  part: 'Part',
}

/** Each part in words ('Pilot', 'Rest', 'Fixed rows'…), numbered when two share a word. */
export function partWords(
  parts: { submission: Pick<SubmissionHead, 'sendKind'> | null }[],
): string[] {
  const words = parts.map((part, i) => {
    const kind = part.submission?.sendKind
    if (kind && PART_WORDS[kind]) return PART_WORDS[kind]
    return i === 0 ? 'Pilot' : 'Rest'
  })
  return words.map((word, i) => {
    const same = words.filter((w) => w === word).length
    return same > 1 ? `${word} ${words.slice(0, i + 1).filter((w) => w === word).length}` : word
  })
}

/** The Run sheet's lines of a batch: what it is, and each part's run by its id. */
export function batchLines(words: string[], runIds: string[]): [string, string][] {
  return [
    ['Batch', `${words.join(', ').toLowerCase()}: one sheet, rows in sheet order`],
    ...runIds.map((runId, p): [string, string] => [`${words[p]} run`, runId]),
  ]
}

/** The counters and costs of every run, added up; the rest from the run asked for. */
export function batchRun(runs: RunSummary[], asked: number): RunSummary {
  const sum = (key: 'totalTasks' | 'completedTasks' | 'failedTasks' | 'cancelledTasks') =>
    runs.reduce((n, r) => n + r[key], 0)
  return {
    ...runs[asked]!,
    totalTasks: sum('totalTasks'),
    completedTasks: sum('completedTasks'),
    failedTasks: sum('failedTasks'),
    cancelledTasks: sum('cancelledTasks'),
    estimatedCostT: sumT(runs.map((r) => r.estimatedCostT)),
    actualCostT: sumT(runs.map((r) => r.actualCostT)),
    completedAtUnix: Math.max(...runs.map((r) => r.completedAtUnix)),
    firstErrorMessage: runs.find((r) => r.firstErrorMessage)?.firstErrorMessage ?? '',
  }
}
