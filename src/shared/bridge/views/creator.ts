/** Views of the creator's screens: their own marketplace listings. */
import type { CreatorListing } from '../../contract'

export interface ListingPage {
  environment: string
  items: CreatorListing[]
  nextPageToken: string
}
