/**
 * Usage: the service's runs list (every run of the user, from any computer) read whole and kept
 * in the history, so the Usage screen opens at once and works offline with what was last read;
 * and the monthly spending limit per environment, kept on this computer (limit.ts keeps it).
 */
import type { AmountT } from '../../../shared/format/amounts'
import { isTerminalStatus, type RunSummary } from '../../../shared/contract'
import type { UsageRun } from '../../../shared/usage/figures'
import { describeUserError, UserFacingError } from '../../errors'
import type { Connection } from '../../environments/connection'
import type { Db } from '../../storage/db'
import { UsageTables } from '../../storage/tables/usage'

/** The most runs read for usage; a year of 10,000 runs fits several times. */
const MAX_RUNS = 100_000

/** A run summary as usage counts it. */
export function usageRunOf(run: RunSummary): UsageRun {
  const listing = run.market?.listingId
  const finished = isTerminalStatus(run.status)
  return {
    runId: run.runId,
    name: run.displayName || run.runId,
    status: run.status,
    targetKind: listing ? 'listing' : 'template',
    targetId: listing || run.templateKey,
    targetName: run.market?.skillName || run.templateName || listing || run.templateKey,
    estimatedCostT: run.estimatedCostT,
    actualCostT: run.actualCostT,
    rows: run.totalTasks,
    succeededRows: Math.max(0, run.completedTasks),
    createdAtUnix: run.createdAtUnix,
    completedAtUnix: finished ? run.completedAtUnix || run.updatedAtUnix : 0,
    finished,
  }
}

/** The runs usage counts, and whether they are fresh from the service or kept from before. */
export interface UsageRuns {
  runs: UsageRun[]
  /** When the runs were read from the service (null: never, on this computer). */
  readAtMs: number | null
  /** Why the service could not be read now, when the runs are the ones kept from before. */
  offline: string | null
}

export class Usage {
  private readonly tables: UsageTables

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.tables = new UsageTables(db)
  }

  /** The runs saved at the last read, without asking the service. */
  lastRead(connection: Pick<Connection, 'historyKey'>): UsageRuns {
    return { ...this.tables.runs(connection.historyKey), offline: null }
  }

  /**
   * Reads every run from the service and keeps them. When the service cannot be read (down,
   * refused, or the token is missing), answers the runs kept from before and says why.
   */
  async read(
    connection: Pick<Connection, 'historyKey' | 'client'>,
    options: { signal?: AbortSignal } = {},
  ): Promise<UsageRuns> {
    try {
      const all = await connection.client.listAllRuns({ limit: MAX_RUNS }, options)
      const runs = all.items.map(usageRunOf)
      const readAtMs = this.now()
      this.tables.replaceRuns(connection.historyKey, runs, readAtMs)
      return { runs, readAtMs, offline: null }
    } catch (error) {
      if (!(error instanceof UserFacingError) || error.category === 'internal') throw error
      if (error.category === 'cancelled') throw error
      return { ...this.tables.runs(connection.historyKey), offline: describeUserError(error) }
    }
  }

  /** The monthly spending limit of an environment (by name), or null when it has none. */
  limit(environment: string): AmountT | null {
    return this.tables.limit(environment)
  }

  setLimit(environment: string, limitT: number | null) {
    this.tables.setLimit(environment, limitT)
  }
}
