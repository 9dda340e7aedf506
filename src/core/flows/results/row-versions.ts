/**
 * A row's versions: the run that first made it, and the runs that sent it again (a redo of chosen
 * rows, or a retry of failed ones, journaled here with the run they redo). The kept version of a
 * row is the one the user chose, else its newest one that succeeded, else the first; the results
 * workbook and the run's page show the kept one.
 */
import type { Artifact, InputRow, RunDetail, RunTask } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { History } from '../../storage/run-history'
import { EngineError } from '../../errors'
import { inputKey } from '../compare/match-rows'
import { redoIndexes } from '../spend/plan-redo'
import type { Submission, Submissions } from '../spend/submissions'

export interface VersionServices {
  submissions: Pick<Submissions, 'byRun'>
  history: Pick<History, 'retriedBy' | 'keptVersions'>
}

export interface RowVersion {
  runId: string
  /** The row's cells as this version sent them (a retry may have fixed them). */
  input?: InputRow | undefined
  task: RunTask | undefined
  artifacts: Artifact[]
}

export interface RowVersions {
  /** The row's index in the first run. */
  index: number
  versions: RowVersion[]
  /** Index into versions of the one kept. */
  kept: number
  /** Kept because the user chose it, or by the rule (the newest that succeeded). */
  keptBy: 'choice' | 'rule'
}

/**
 * Where each row of a later run sits in the first: by sheet row when both have them, else by
 * cells (the first run's rows read only then).
 */
export function placesIn(
  original: Pick<Submission, 'rowNumbers'>,
  later: Pick<Submission, 'rowNumbers' | 'rows'>,
  originalRows: () => InputRow[],
): (number | undefined)[] {
  if (original.rowNumbers.length > 0 && later.rowNumbers.length === later.rows.length) {
    const bySheetRow = new Map(original.rowNumbers.map((n, i) => [n, i]))
    return later.rowNumbers.map((n) => bySheetRow.get(n))
  }
  const free = new Map<string, number[]>()
  originalRows().forEach((row, i) => {
    const key = inputKey(row as Record<string, unknown>)
    free.set(key, [...(free.get(key) ?? []), i])
  })
  return later.rows.map((row) => free.get(inputKey(row as Record<string, unknown>))?.shift())
}

function versionOf(detail: RunDetail, index: number): RowVersion {
  return {
    runId: detail.run.runId,
    task: detail.tasks.find((t) => t.sourceRowIndex === index),
    artifacts: detail.artifacts.filter((a) => a.sourceRowIndex === index),
  }
}

/** The rows of `detail` that were sent again, each with every version; none when none were. */
export async function rowVersions(
  services: VersionServices,
  connection: Connection,
  detail: RunDetail,
  signal?: AbortSignal,
): Promise<RowVersions[]> {
  const runId = detail.run.runId
  const original = services.submissions.byRun(connection.historyKey, runId)
  const later = services.history.retriedBy(connection.historyKey, runId)
  if (!original || later.length === 0) return []
  const byRow = new Map<number, RowVersion[]>()
  for (const laterId of later) {
    const submission = services.submissions.byRun(connection.historyKey, laterId)
    if (!submission) continue
    const laterDetail = await connection.client.run(laterId, { signal })
    placesIn(original, submission, () => original.rows).forEach((index, i) => {
      if (index === undefined) return
      const versions = byRow.get(index) ?? [versionOf(detail, index)]
      byRow.set(index, [...versions, { ...versionOf(laterDetail, i), input: submission.rows[i] }])
    })
  }
  const chosen = services.history.keptVersions(connection.historyKey, runId)
  return [...byRow.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, versions]) => keptOf(index, versions, chosen.get(index)))
}

/** The version kept: the one chosen while it is still among the row's versions, else by the rule. */
export function keptOf(index: number, versions: RowVersion[], chosenRunId?: string): RowVersions {
  const chosen = chosenRunId ? versions.findIndex((v) => v.runId === chosenRunId) : -1
  if (chosen >= 0) return { index, versions, kept: chosen, keptBy: 'choice' }
  const good = versions.map((v) => v.task?.status === 'succeeded')
  const kept = good.lastIndexOf(true)
  return { index, versions, kept: kept < 0 ? 0 : kept, keptBy: 'rule' }
}

export type KeepServices = VersionServices & { history: Pick<History, 'keepVersion'> }

/**
 * Keeps version `version` (0 = the row as first sent) of the row at `index` of `detail`'s run:
 * remembered on this computer, so the run's page and its results workbook show that one.
 * Returns the run's rows sent again with the choice applied.
 */
export async function keepRowVersion(
  services: KeepServices,
  connection: Connection,
  detail: RunDetail,
  index: number,
  version: number,
  signal?: AbortSignal,
): Promise<RowVersions[]> {
  const rows = await rowVersions(services, connection, detail, signal)
  const row = rows.find((r) => r.index === index)
  const chosen = row?.versions[version]
  if (!row || !chosen) {
    throw new EngineError(
      'not-found',
      row
        ? `That row has ${row.versions.length} versions; there is no version ${version + 1}.`
        : 'That row of the run was never sent again, so it has only one version.',
      'Choose one of the versions the run’s page lists for that row.',
    )
  }
  services.history.keepVersion(connection.historyKey, detail.run.runId, index, chosen.runId)
  return rows.map((r) => (r === row ? { ...r, kept: version, keptBy: 'choice' } : r))
}

/**
 * The versions of one row of a run, the row named as the user sees it (its sheet row, or its
 * place in the submission); with `version` (0 = as first sent), that version is kept first.
 */
export async function namedRowVersions(
  services: KeepServices,
  connection: Connection,
  runId: string,
  rowNumber: number,
  version?: number,
  signal?: AbortSignal,
): Promise<RowVersions> {
  const original = services.submissions.byRun(connection.historyKey, runId)
  if (!original)
    throw new EngineError(
      'not-found',
      `Run ${runId} was not sent from this computer, so its rows have no other versions here.`,
      'Choose a run sent from this computer.',
    )
  const index = redoIndexes(original, runId, [rowNumber])[0]!
  const detail = await connection.client.run(runId, { signal })
  const rows =
    version === undefined
      ? await rowVersions(services, connection, detail, signal)
      : await keepRowVersion(services, connection, detail, index, version, signal)
  const row = rows.find((r) => r.index === index)
  if (row) return row
  // Never sent again: its only version is the run's own.
  return keptOf(index, [versionOf(detail, index)])
}
