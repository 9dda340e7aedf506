/**
 * A run's rows sent again whose later version is kept (row-versions.ts says which), read from
 * the history for the results workbook: each later run's detail is stored as it is read, its
 * tasks gone through once for their outcome, and only the kept versions' outputs are held.
 */
import type { Artifact, InputRow, RunTask } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { Downloads } from '../downloads/downloads'
import type { Submissions, SubmissionSheet } from '../spend/submissions'
import { readStoredRun } from '../watch/stored-detail'
import { keptOf, placesIn, type RowVersion, type VersionServices } from './row-versions'

/** A row's kept later version: the run that sent it, the cells it sent, its task and outputs. */
export interface KeptRow {
  runId: string
  input?: InputRow | undefined
  task: RunTask | undefined
  artifacts: Artifact[]
}

export interface KeptRowsServices extends VersionServices {
  submissions: Pick<Submissions, 'byRun'>
  downloads: Pick<Downloads, 'rows'>
}

/** A later version, with its place in the run that sent it. */
type Version = RowVersion & { at: number }

/**
 * The rows of run `runId` (journaled as `original`) whose kept version is a later one, by their
 * index in the run, in row order; empty when none was sent again.
 */
export async function keptRows(
  services: KeptRowsServices,
  connection: Connection,
  runId: string,
  original: SubmissionSheet | null,
  signal?: AbortSignal,
): Promise<Map<number, KeptRow>> {
  const { historyKey } = connection
  const later = services.history.retriedBy(historyKey, runId)
  if (!original || later.length === 0) return new Map()
  let rows: InputRow[] | undefined
  const originalRows = () => (rows ??= services.submissions.byRun(historyKey, runId)?.rows ?? [])
  const byRow = new Map<number, Version[]>()
  for (const laterId of later) {
    const submission = services.submissions.byRun(historyKey, laterId)
    if (!submission) continue
    const where = { historyKey, runId: laterId, keepUpTo: 0 }
    await readStoredRun(connection.client, services.downloads.rows, where, { signal })
    const tasks = new Map<number, RunTask>()
    for (const task of services.downloads.rows.tasksOf(historyKey, laterId))
      if (!tasks.has(task.sourceRowIndex)) tasks.set(task.sourceRowIndex, task)
    placesIn(original, submission, originalRows).forEach((index, at) => {
      if (index === undefined) return
      const first: Version = { runId, task: undefined, artifacts: [], at: index }
      const version = { runId: laterId, input: submission.rows[at], task: tasks.get(at), at }
      byRow.set(index, [...(byRow.get(index) ?? [first]), { ...version, artifacts: [] }])
    })
  }
  const chosen = services.history.keptVersions(historyKey, runId)
  const kept = new Map<number, Version>()
  for (const [index, versions] of [...byRow.entries()].sort(([a], [b]) => a - b)) {
    const at = keptOf(index, versions, chosen.get(index)).kept
    if (at > 0) kept.set(index, versions[at]!)
  }
  withOutputs(services.downloads.rows, historyKey, [...kept.values()])
  return kept
}

/** Each kept version given its outputs, the later runs' stored outputs gone through once each. */
function withOutputs(rows: Downloads['rows'], historyKey: string, versions: Version[]): void {
  const byRun = new Map<string, Map<number, Version>>()
  for (const version of versions) {
    const places = byRun.get(version.runId) ?? new Map<number, Version>()
    places.set(version.at, version)
    byRun.set(version.runId, places)
  }
  for (const [laterId, places] of byRun)
    for (const artifact of rows.outputsOf(historyKey, laterId))
      places.get(artifact.sourceRowIndex)?.artifacts.push(artifact)
}
