/**
 * What sending rows will cost, and what the history knows of the same rows: the fee, or the cost
 * per row learned from an ended earlier run of the same target (a pilot), and the fingerprint of
 * the input's content that finds an identical submission.
 */
import { isTerminalStatus, type InputRow, type RunSummary } from '../../../shared/contract'
import type { EstimateSource } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import { amountT, shareT, timesT, type AmountT } from '../../../shared/format/amounts'
import type { Connection } from '../../environments/connection'
import type { LearnedCost, SpendServices } from './plan'
import { fingerprintOf } from './submissions'
import { hashFile } from './uploads'

type CostServices = Pick<SpendServices, 'history' | 'submissions'>

/** The run summary the history last saw, refreshed from the service when it had not ended. */
async function endedRun(
  services: CostServices,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<RunSummary | null> {
  const seen = services.history.seenRun(connection.historyKey, runId)
  if (seen && isTerminalStatus(seen.status)) return seen
  try {
    const run = await connection.client.runSummary(runId, { signal })
    services.history.recordRuns(connection.historyKey, [run])
    return isTerminalStatus(run.status) ? run : null
  } catch {
    return null
  }
}

/**
 * The actual cost per row of an ended run of this target sent from this device: the runs of the
 * same batch first (`batchRunIds`, newest first: the rest of a pilot is priced from its pilot,
 * whatever else of the target was sent since), then the newest others. Its actualCostT over the
 * rows that succeeded (failed rows are not charged). Null when none has ended with a succeeded row.
 */
export async function learnCostPerRow(
  services: CostServices,
  connection: Connection,
  kind: RunTarget['kind'],
  targetId: string,
  signal?: AbortSignal,
  batchRunIds: readonly string[] = [],
): Promise<LearnedCost | null> {
  const newest = services.submissions
    .acceptedOfTarget(connection.historyKey, kind, targetId, 3)
    .map((earlier) => earlier.runId)
  for (const runId of new Set([...batchRunIds, ...newest])) {
    if (!runId) continue
    const run = await endedRun(services, connection, runId, signal)
    if (!run || run.completedTasks <= 0) continue
    return {
      runId: run.runId,
      rows: run.completedTasks,
      actualCostT: amountT(run.actualCostT),
      costPerRowT: shareT(amountT(run.actualCostT), 1, run.completedTasks, 'exact'),
    }
  }
  return null
}

export function estimateOf(
  rowCount: number,
  fee: AmountT | null,
  learned: LearnedCost | null,
): { estimateT: AmountT | null; estimateSource: EstimateSource } {
  if (fee !== null) return { estimateT: timesT(fee, rowCount), estimateSource: 'fee' }
  if (learned) {
    return {
      estimateT: shareT(learned.actualCostT, rowCount, learned.rows, 'up'),
      estimateSource: 'pilot',
    }
  }
  return { estimateT: null, estimateSource: 'none' }
}

/**
 * What identifies the input's content before anything is uploaded: each local file named in a
 * cell counts by its SHA-256, so the same workbook with the same files is the same submission.
 */
async function contentRows(rows: InputRow[], signal?: AbortSignal): Promise<InputRow[]> {
  const hashes = new Map<string, string>()
  const visit = async (value: unknown): Promise<unknown> => {
    if (Array.isArray(value)) return Promise.all(value.map(visit))
    if (value && typeof value === 'object' && 'localPath' in value) {
      const path = (value as { localPath: unknown }).localPath
      if (typeof path === 'string') {
        let sha256 = hashes.get(path)
        if (sha256 === undefined) {
          sha256 = await hashFile(path, signal).catch(() => `unreadable:${path}`)
          hashes.set(path, sha256)
        }
        return { sha256 }
      }
    }
    return value
  }
  const out: InputRow[] = []
  for (const row of rows) {
    const entries = await Promise.all(
      Object.entries(row).map(async ([key, value]) => [key, await visit(value)] as const),
    )
    out.push(Object.fromEntries(entries))
  }
  return out
}

/** What identifies sending `rows` to `target` from here (see fingerprintOf), before any upload. */
export async function contentFingerprint(
  connection: Connection,
  target: RunTarget,
  rows: InputRow[],
  signal?: AbortSignal,
): Promise<string> {
  return fingerprintOf(connection.historyKey, target, await contentRows(rows, signal))
}

/** The estimate, what it was learned from, and any identical submission already made. */
export async function costAndHistory(
  services: CostServices,
  connection: Connection,
  target: RunTarget,
  rows: InputRow[],
  fee: AmountT | null,
  signal?: AbortSignal,
  batchRunIds: readonly string[] = [],
) {
  const targetId = target.kind === 'template' ? target.templateId : target.listingId
  const learnedFrom =
    fee === null
      ? await learnCostPerRow(services, connection, target.kind, targetId, signal, batchRunIds)
      : null
  const fingerprint = await contentFingerprint(connection, target, rows, signal)
  return {
    ...estimateOf(rows.length, fee, learnedFrom),
    learnedFrom,
    fingerprint,
    duplicateOf: services.submissions.acceptedLike(connection.historyKey, fingerprint),
    unansweredOf: services.submissions.unansweredLike(connection.historyKey, fingerprint),
  }
}
