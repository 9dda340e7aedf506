/**
 * History's rows grouped by batch: the runs of one buyer's sheet listed together, in the order
 * they were sent, under a head row naming the sheet, at the place of the batch's newest run.
 * A batch with one run listed keeps its row as it is. Pure.
 */
import type { HistoryEntryView } from '../../shared/bridge'

/** A head row: the sheet whose runs follow. */
export interface BatchHeadRow {
  kind: 'batch'
  environment: string
  batchId: string
  fileName: string
  /** A run of the batch, to ask the batch by (getBatch takes a run). */
  runId: string
  runs: number
}

export type HistoryRow = { kind: 'entry'; entry: HistoryEntryView; inBatch: boolean } | BatchHeadRow

const batchKey = (e: HistoryEntryView) => (e.batchId ? `${e.environment}\n${e.batchId}` : '')

export function historyRows(items: readonly HistoryEntryView[]): HistoryRow[] {
  const byBatch = new Map<string, HistoryEntryView[]>()
  for (const entry of items) {
    const key = batchKey(entry)
    if (!key) continue
    const runs = byBatch.get(key)
    if (runs) runs.push(entry)
    else byBatch.set(key, [entry])
  }
  const rows: HistoryRow[] = []
  const placed = new Set<string>()
  for (const entry of items) {
    const key = batchKey(entry)
    const runs = key ? byBatch.get(key)! : []
    if (runs.length < 2) {
      rows.push({ kind: 'entry', entry, inBatch: false })
      continue
    }
    if (placed.has(key)) continue
    placed.add(key)
    const sent = [...runs].sort((a, b) => a.createdAtMs - b.createdAtMs || a.id - b.id)
    rows.push({
      kind: 'batch',
      environment: entry.environment,
      batchId: entry.batchId!,
      fileName: sent[0]!.inputFilename,
      runId: entry.runId,
      runs: runs.length,
    })
    for (const run of sent) rows.push({ kind: 'entry', entry: run, inBatch: true })
  }
  return rows
}

export const historyRowKey = (row: HistoryRow) =>
  row.kind === 'batch' ? `batch\n${row.environment}\n${row.batchId}` : String(row.entry.id)
