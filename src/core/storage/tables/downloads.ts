/**
 * The `downloads` table: the state of every artifact of a run saved on this device (path, size,
 * hash, and the ETag a partial file was started with), so a later download resumes it.
 */
import * as z from 'zod'
import type { Db } from '../db'
import { readOptionalRow, readRows, selectRows } from '../read-row'

export type DownloadState = 'partial' | 'done' | 'failed'

export interface DownloadRecord {
  path: string
  bytes: number
  sha256: string
  state: DownloadState
  etag: string
}

const downloadRow = z.object({
  path: z.string(),
  bytes: z.number(),
  sha256: z.string(),
  state: z.enum(['partial', 'done', 'failed']),
  etag: z.string(),
})
const pathRow = z.object({ path: z.string() })
const countRow = z.object({ n: z.number() })
const runSavedRow = z.object({ run_id: z.string(), n: z.number(), path: z.string() })

export class DownloadsTable {
  constructor(private readonly db: Db) {}

  get(historyKey: string, runId: string, artifactId: string): DownloadRecord | null {
    const row = this.db
      .prepare(
        'SELECT path, bytes, sha256, state, etag FROM downloads WHERE origin = ? AND run_id = ? AND artifact_id = ?',
      )
      .get(historyKey, runId, artifactId)
    return readOptionalRow(downloadRow, row)
  }

  /** Every path recorded for the run's artifacts, whatever their state. */
  paths(historyKey: string, runId: string): string[] {
    const rows = this.db
      .prepare('SELECT path FROM downloads WHERE origin = ? AND run_id = ?')
      .all(historyKey, runId)
    return readRows(pathRow, rows).map((r) => r.path)
  }

  /** Records an artifact's state (with the error that stopped it, '' when none). */
  put(
    historyKey: string,
    runId: string,
    artifactId: string,
    record: DownloadRecord & { error: string },
    updatedAtMs: number,
  ) {
    this.db
      .prepare(
        `INSERT INTO downloads (origin, run_id, artifact_id, path, bytes, sha256, state, error, etag, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(origin, run_id, artifact_id) DO UPDATE SET path = excluded.path, bytes = excluded.bytes,
           sha256 = excluded.sha256, state = excluded.state, error = excluded.error, etag = excluded.etag,
           updated_at_ms = excluded.updated_at_ms`,
      )
      .run(
        historyKey,
        runId,
        artifactId,
        record.path,
        record.bytes,
        record.sha256,
        record.state,
        record.error,
        record.etag,
        updatedAtMs,
      )
  }

  /**
   * For each of `runIds` with saved outputs: how many, and the path of the one saved last (the
   * folder they went to). One query for a page of runs; runs with none are left out.
   */
  finishedByRun(
    historyKey: string,
    runIds: readonly string[],
  ): { runId: string; files: number; path: string }[] {
    if (runIds.length === 0) return []
    // SQLite takes the bare `path` from the row of MAX(updated_at_ms).
    const sql = `SELECT run_id, COUNT(*) AS n, MAX(updated_at_ms) AS at, path FROM downloads
      WHERE origin = ? AND state = 'done' AND run_id IN (SELECT value FROM json_each(?))
      GROUP BY run_id`
    return selectRows(this.db, runSavedRow, sql, [historyKey, JSON.stringify(runIds)]).map(
      (row) => ({ runId: row.run_id, files: row.n, path: row.path }),
    )
  }

  finishedCount(historyKey: string, runId: string): number {
    const row = this.db
      .prepare(
        "SELECT COUNT(*) AS n FROM downloads WHERE origin = ? AND run_id = ? AND state = 'done'",
      )
      .get(historyKey, runId)
    return readOptionalRow(countRow, row)?.n ?? 0
  }
}
