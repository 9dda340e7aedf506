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
  // The listing's terms pass through as they are; the schema is split into the view's lists.
  const { schema, ...terms } = listing
  return {
    environment,
    ...terms,
    unitLabel,
    executable: listing.source === 'none' ? false : isExecutableListing(listing),
    columns: schema?.columns ?? [],
    fields: schema?.fields ?? [],
    sourceNote: sourceNote(listing.source),
  }
}
