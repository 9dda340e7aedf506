/**
 * A batch in words: one sentence for its counts, the same in the app, the CLI, History and the
 * results workbook ("30 rows: 29 succeeded, 1 failed, then sent again and succeeded").
 */
import { plural } from './amounts'
import type { BatchCounts, BatchSendKind } from '../bridge/views/batches'

/** Counts of a batch, with how many rows succeeded only after being sent again. */
export interface BatchTally extends BatchCounts {
  /** Rows whose first send did not succeed and a later one did. */
  recovered: number
}

export function batchSummary(t: BatchTally): string {
  const parts: string[] = []
  const n = (count: number) => count.toLocaleString('en-US')
  const firstTime = t.succeeded - t.recovered
  if (firstTime > 0) parts.push(`${n(firstTime)} succeeded`)
  if (t.recovered > 0)
    parts.push(
      `${n(t.recovered)} failed, then ${t.recovered === 1 ? 'was' : 'were'} sent again and succeeded`,
    )
  if (t.failed > 0) parts.push(`${n(t.failed)} failed`)
  if (t.pending > 0) parts.push(`${n(t.pending)} still running`)
  if (t.setAside > 0) parts.push(`${n(t.setAside)} set aside to fix`)
  if (t.notSent > 0) parts.push(`${n(t.notSent)} not sent yet`)
  return `${plural(t.rows, 'row')}: ${parts.length > 0 ? parts.join(', ') : 'none sent yet'}`
}

const KIND_WORDS: Record<BatchSendKind, string> = {
  all: 'all rows',
  pilot: 'pilot',
  rest: 'rest after the pilot',
  valid: 'valid rows',
  'follow-up': 'fixed rows sent back',
  retry: 'retry of failed rows',
  redo: 'redo of chosen rows',
  chosen: 'chosen rows',
  part: 'one part of a large sheet',
}

/** How a run of a batch came to be sent, in a few words ("pilot", "redo of chosen rows"). */
export function sendKindWords(kind: string): string {
  return KIND_WORDS[kind as BatchSendKind] ?? 'rows'
}
