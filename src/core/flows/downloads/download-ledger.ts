/**
 * One run's page of the downloads ledger: what each artifact's download reached, so that a later
 * download of the run skips finished files, resumes cut ones and keeps the same file names.
 */
import { isInside } from '../../files/folders'
import { transaction, type Db } from '../../storage/db'
import type { DownloadRecord, DownloadsTable } from '../../storage/tables/downloads'

export type LedgerEntry = Partial<DownloadRecord> & { error?: string }

export class DownloadLedger {
  private readonly pending: [string, LedgerEntry][] = []
  private lastFlush = Date.now()

  constructor(
    private readonly db: Db,
    private readonly table: DownloadsTable,
    private readonly historyKey: string,
    private readonly runId: string,
  ) {}

  get(artifactId: string): DownloadRecord | undefined {
    return this.table.get(this.historyKey, this.runId, artifactId) ?? undefined
  }

  /** Paths recorded for this run inside `folder` (the same run may be saved elsewhere too). */
  paths(folder: string): Set<string> {
    const paths = this.table.paths(this.historyKey, this.runId)
    return new Set(paths.filter((path) => isInside(folder, path)))
  }

  /**
   * Records a finished file. Written in batches (one transaction, one disk sync) so a thousand
   * small files do not cost a thousand syncs; flush() writes the rest. A batch lost in a crash
   * only means those files are fetched again, under the same names.
   */
  done(artifactId: string, entry: LedgerEntry) {
    this.pending.push([artifactId, { ...entry, state: 'done' }])
    if (this.pending.length >= 100 || Date.now() - this.lastFlush > 500) this.flush()
  }

  flush() {
    this.lastFlush = Date.now()
    if (this.pending.length === 0) return
    const batch = this.pending.splice(0)
    transaction(this.db, () => {
      for (const [artifactId, entry] of batch) this.put(artifactId, entry)
    })
  }

  /** Records an artifact's state now; what `entry` leaves out keeps its recorded value. */
  put(artifactId: string, entry: LedgerEntry) {
    const current = this.get(artifactId)
    this.table.put(
      this.historyKey,
      this.runId,
      artifactId,
      {
        path: entry.path ?? current?.path ?? '',
        bytes: entry.bytes ?? current?.bytes ?? 0,
        sha256: entry.sha256 ?? current?.sha256 ?? '',
        state: entry.state ?? current?.state ?? 'partial',
        etag: entry.etag ?? current?.etag ?? '',
        error: entry.error ?? '',
      },
      Date.now(),
    )
  }
}
