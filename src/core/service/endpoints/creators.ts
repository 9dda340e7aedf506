/** Creators and Creator Reviews: the creator's own listings and one review request. */
import {
  PAGE_LIMITS,
  QUERY,
  creatorListingListSchema,
  paths,
  reviewRequestSchema,
  type CreatorListing,
  type CreatorListingList,
  type ReviewRequest,
} from '../../../shared/contract'
import { clampPageSize, paginate } from '../paginate'
import type { CallOptions, Transport } from '../transport'

export interface ListingsQuery {
  search?: string | undefined
  pageSize?: number | undefined
  pageToken?: string | undefined
}

export interface AllListingsQuery {
  search?: string | undefined
  limit?: number | undefined
}

export function listCreatorListings(
  transport: Transport,
  query: ListingsQuery = {},
  options?: CallOptions,
): Promise<CreatorListingList> {
  const q = QUERY.listings
  return transport.request(
    {
      name: 'creatorListings',
      path: paths.creatorListings(),
      answer: creatorListingListSchema,
      query: {
        [q.search]: query.search,
        [q.pageSize]: clampPageSize(query.pageSize, PAGE_LIMITS.listings.max),
        [q.pageToken]: query.pageToken,
      },
    },
    options,
  )
}

/** Every listing of the creator up to `limit`, following page tokens. */
export async function listAllCreatorListings(
  transport: Transport,
  query: AllListingsQuery = {},
  options?: CallOptions,
): Promise<CreatorListing[]> {
  const all = await paginate<CreatorListing>(
    ({ pageToken, pageSize }) =>
      listCreatorListings(transport, { search: query.search, pageSize, pageToken }, options),
    { limit: query.limit, maxPageSize: PAGE_LIMITS.listings.max },
  )
  return all.items
}

export function reviewRequest(
  transport: Transport,
  id: string,
  options?: CallOptions,
): Promise<ReviewRequest> {
  return transport.request(
    { name: 'reviewRequest', path: paths.reviewRequest(id), answer: reviewRequestSchema },
    options,
  )
}
