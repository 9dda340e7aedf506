/** Creators and Creator Reviews: the creator's own listings and one review request. */
import {
  PAGE_LIMITS,
  QUERY,
  creatorListingListSchema,
  paths,
  reviewRequestSchema,
  type CreatorListing,
  type CreatorListingList,
} from '../../../shared/contract'
import { paginate } from '../paginate'
import { getById, pageQuery, type PageRequest } from './calls'
import type { CallOptions, Transport } from '../transport'

export interface ListingsQuery extends PageRequest {
  search?: string | undefined
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
  const filters = { [q.search]: query.search }
  return transport.request(
    {
      name: 'creatorListings',
      path: paths.creatorListings(),
      answer: creatorListingListSchema,
      query: pageQuery(q, query, PAGE_LIMITS.listings.max, filters),
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

export const reviewRequest = getById('reviewRequest', paths.reviewRequest, reviewRequestSchema)
