/**
 * Fresh accessUrls for a run's artifacts. The interface does not promise that an artifact's
 * address lasts (storage services sign theirs for minutes), so when one is refused the run's
 * detail is read again and the download goes on with the new address, without asking anyone.
 * One object per run download: the workers that meet an expired address at the same time share
 * one read of the detail.
 */
import type { Artifact } from '../../../shared/contract'
import { ApiError } from '../../service'

/** What a refused or expired address answers: a signed URL past its end says 403 (or 401/410). */
const EXPIRED_STATUSES = new Set([401, 403, 404, 410])
/** New addresses asked for one artifact before its failure is told as it is. */
const RENEWALS_PER_ARTIFACT = 2

/** The download failed because the artifact's address was refused (not the connection, not disk). */
export function addressRefused(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && EXPIRED_STATUSES.has(error.status)
}

export class FreshAddresses {
  /** The newest address known of each artifact. */
  private readonly latest = new Map<string, Artifact>()
  private readonly renewals = new Map<string, number>()
  private reading: Promise<void> | null = null

  /** `readOutputs` reads the run's outputs again, as the service lists them now. */
  constructor(private readonly readOutputs: () => Promise<Iterable<Artifact>>) {}

  /**
   * The artifact with an address other than `stale`'s, read from the run again unless another
   * worker already did; null when the service gives no new one (or this one has had its share).
   */
  async renew(stale: Artifact): Promise<Artifact | null> {
    const used = this.renewals.get(stale.artifactId) ?? 0
    if (used >= RENEWALS_PER_ARTIFACT) return null
    this.renewals.set(stale.artifactId, used + 1)
    if (!this.isNewer(stale)) {
      this.reading ??= this.readAgain().finally(() => {
        this.reading = null
      })
      // A detail that cannot be read now leaves the first failure to be told as it was.
      await this.reading.catch(() => {})
    }
    return this.isNewer(stale) ? this.latest.get(stale.artifactId)! : null
  }

  private isNewer(stale: Artifact): boolean {
    const known = this.latest.get(stale.artifactId)
    return !!known?.accessUrl && known.accessUrl !== stale.accessUrl
  }

  private async readAgain(): Promise<void> {
    // Only outputs fetched from an address are kept: an inline one has nothing to renew.
    for (const artifact of await this.readOutputs())
      if (artifact.accessUrl) this.latest.set(artifact.artifactId, artifact)
  }
}
