/**
 * Run status values decided in DESIGN.md. Unknown values are shown verbatim and are not terminal;
 * the other statuses there (task, transaction, listing) are kept as the plain strings they arrive as.
 */

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const

export type RunStatus = (typeof RUN_STATUSES)[number]

const TERMINAL = new Set<string>(['succeeded', 'failed', 'cancelled'])

/** A run or task that will not change any more. Unknown statuses are not terminal. */
export function isTerminalStatus(status: string): boolean {
  return TERMINAL.has(status)
}

/** A listing can be executed only when it is published, on sale, available and current. */
export function isExecutableListing(listing: {
  status: string
  saleStatus: string
  executionAvailabilityStatus: string
  listingVersionId: string
  publishedVersionId: string
}): boolean {
  return (
    listing.status === 'published' &&
    listing.saleStatus === 'on_sale' &&
    listing.executionAvailabilityStatus === 'available' &&
    listing.listingVersionId !== '' &&
    listing.listingVersionId === listing.publishedVersionId
  )
}
