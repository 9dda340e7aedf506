/**
 * The runs of one batch (a pilot, its rest, the fixed rows sent back...) are one sheet: the
 * results workbook of any of them shows every run's rows on one sheet, in the sheet's row order,
 * each saying in words which run it came from. The merge is pure; the runs' ids go on the Run sheet.
 */
import { sumT } from '../../../shared/format/amounts'
import type { Artifact, RunDetail, RunTask } from '../../../shared/contract'
import type { Batches } from '../batch/batches'
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
 * The runs whose rows make up the sheet of the batch `runId` belongs to (all, a pilot, its rest,
 * the valid rows, the fixed rows sent back, rows chosen), in the order sent; a retry or a redo
 * is a later version of rows already there (row-versions.ts), not a part. Just `runId` when it
 * was sent alone, is itself a retry or redo, or was not sent from this computer.
 */
export function batchRunsOf(
  services: { submissions: Pick<Submissions, 'batchRuns'>; batches?: Pick<Batches, 'sendsOf'> },
  historyKey: string,
  runId: string,
  submission: Submission | null,
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
function partWords(parts: BatchPart[]): string[] {
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
    estimatedCostT: sumT(runs.map((r) => r.estimatedCostT)),
    actualCostT: sumT(runs.map((r) => r.actualCostT)),
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
  const words = partWords(parts)
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
      ['Batch', `${words.join(', ').toLowerCase()}: one sheet, rows in sheet order`],
      ...parts.map((part, p): [string, string] => [`${words[p]} run`, part.detail.run.runId]),
    ],
  }
}
