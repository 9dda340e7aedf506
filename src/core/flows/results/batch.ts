/**
 * A pilot and the rest of its workbook are one batch (journaled with `batchOfRunId`): the
 * results workbook of either shows both runs' rows on one sheet, in the sheet's row order, each
 * saying in words which run it came from. The merge is pure; the runs' ids go on the Run sheet.
 */
import type { Artifact, RunDetail, RunTask } from '../../../shared/contract'
import type { Submission, Submissions } from '../spend/submissions'
import type { RunDownload } from '../downloads/downloads'

/** One run of a batch as the results show it (its retries' kept rows already in place). */
export interface BatchPart {
  detail: RunDetail
  submission: Submission | null
  download: RunDownload
}

/** The batch merged: one detail and one submission over every row, and each row's run in words. */
export interface MergedBatch extends BatchPart {
  sentIn: string[]
  aboutLines: [string, string][]
}

/**
 * The runs of the batch `runId` belongs to, the pilot first, in the order sent; just `runId`
 * when it was sent alone (or not from this computer).
 */
export function batchRunsOf(
  submissions: Pick<Submissions, 'batchRuns'>,
  historyKey: string,
  runId: string,
  submission: Submission | null,
): string[] {
  if (!submission) return [runId]
  const runs = submissions.batchRuns(historyKey, submission.batchOfRunId || runId)
  return runs.length > 1 && runs.includes(runId) ? runs : [runId]
}

/** 'Pilot', then 'Rest' (or 'Rest 1', 'Rest 2'… when the rest went in more than one run). */
function partWords(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? 'Pilot' : count === 2 ? 'Rest' : `Rest ${i}`,
  )
}

/** How many rows a part shows: its submitted rows, or more when the service knows more. */
function rowsOf(part: BatchPart): number {
  // A loop, not Math.max(...): a big run's tens of thousands of items are no argument list.
  let rows = part.submission?.rows.length ?? 0
  for (const item of [part.detail.tasks, part.detail.artifacts].flat())
    rows = Math.max(rows, item.sourceRowIndex + 1)
  return rows
}

/** The counters and costs of every run, added up; the rest from the run asked for. */
function batchSummary(parts: BatchPart[], asked: BatchPart): RunDetail['run'] {
  const runs = parts.map((p) => p.detail.run)
  const sum = (key: 'totalTasks' | 'completedTasks' | 'failedTasks' | 'cancelledTasks') =>
    runs.reduce((n, r) => n + r[key], 0)
  return {
    ...asked.detail.run,
    totalTasks: sum('totalTasks'),
    completedTasks: sum('completedTasks'),
    failedTasks: sum('failedTasks'),
    cancelledTasks: sum('cancelledTasks'),
    estimatedCostT: runs.reduce((n, r) => n + r.estimatedCostT, 0),
    actualCostT: runs.reduce((n, r) => n + r.actualCostT, 0),
    completedAtUnix: Math.max(...runs.map((r) => r.completedAtUnix)),
    firstErrorMessage: runs.find((r) => r.firstErrorMessage)?.firstErrorMessage ?? '',
  }
}

/**
 * The runs of a batch as one: rows ordered by their sheet row (a row without one goes last, in
 * its run's order), each task and output moved to its row's place. The run asked for names the
 * whole (its id heads the Run sheet, so a redo from this workbook is of that run).
 */
export function mergeBatch(parts: BatchPart[], askedIndex: number): MergedBatch {
  const words = partWords(parts.length)
  const rows = parts.flatMap((part, p) =>
    Array.from({ length: rowsOf(part) }, (_, i) => ({
      p,
      i,
      sheetRow: part.submission?.rowNumbers[i] ?? Number.POSITIVE_INFINITY,
    })),
  )
  // Array.prototype.sort is stable: equal sheet rows keep the order they were sent in.
  rows.sort((a, b) => a.sheetRow - b.sheetRow)
  const place = new Map(rows.map((r, at) => [`${r.p}:${r.i}`, at]))
  const moved = <T extends { sourceRowIndex: number }>(p: number, item: T): T => ({
    ...item,
    sourceRowIndex: place.get(`${p}:${item.sourceRowIndex}`) ?? item.sourceRowIndex,
  })
  const asked = parts[askedIndex]!
  const tasks: RunTask[] = parts.flatMap((part, p) => part.detail.tasks.map((t) => moved(p, t)))
  const artifacts: Artifact[] = parts.flatMap((part, p) =>
    part.detail.artifacts.map((a) => moved(p, a)),
  )
  const numbered = rows.every((r) => Number.isFinite(r.sheetRow))
  return {
    detail: { ...asked.detail, run: batchSummary(parts, asked), tasks, artifacts },
    submission: asked.submission && {
      ...asked.submission,
      rows: rows.map((r) => parts[r.p]!.submission?.rows[r.i] ?? {}),
      rowNumbers: numbered ? rows.map((r) => r.sheetRow) : [],
      rowCount: rows.length,
    },
    download: {
      ...asked.download,
      files: parts.flatMap((part) => part.download.files),
      failed: parts.flatMap((part) => part.download.failed),
    },
    sentIn: rows.map((r) => words[r.p]!),
    aboutLines: [
      ['Batch', `${words.join(' and ').toLowerCase()} of one workbook, rows in sheet order`],
      ...parts.map((part, p): [string, string] => [`${words[p]} run`, part.detail.run.runId]),
    ],
  }
}
