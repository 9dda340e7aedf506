/** A listing as the buyer's form shows it. */
import { isExecutableListing } from '../../../shared/contract'
import type { ListingView } from '../../../shared/bridge'
import { sourceNote, type BuyerListing } from '../../flows/listings/buyer-listing'

/** The Bridge's view of a listing. */
export function listingView(
  environment: string,
  unitLabel: string,
  listing: BuyerListing,
): ListingView {
  return {
    environment,
    listingId: listing.listingId,
    displayName: listing.displayName,
    description: listing.description,
    listingVersionId: listing.listingVersionId,
    publishedVersionId: listing.publishedVersionId,
    taskFixedFeeT: listing.taskFixedFeeT,
    pricingRuleVersion: listing.pricingRuleVersion,
    unitLabel,
    status: listing.status,
    saleStatus: listing.saleStatus,
    executionAvailabilityStatus: listing.executionAvailabilityStatus,
    executable: listing.source === 'none' ? false : isExecutableListing(listing),
    columns: listing.schema?.columns ?? [],
    fields: listing.schema?.fields ?? [],
    source: listing.source,
    sourceNote: sourceNote(listing.source),
  }
}
