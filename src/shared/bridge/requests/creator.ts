/** The creator's screens: their listings, review requests and private templates. */
import * as z from 'zod'
import type { PrivateTemplate, ReviewRequest } from '../../contract'
import type { ListingPage } from '../views/creator'
import { environmentNameSchema, request } from './arguments'

export const creatorRequests = {
  listMyListings: request<ListingPage>()(
    z.strictObject({
      environment: environmentNameSchema,
      search: z.string().max(200).optional(),
      pageSize: z.number().int().min(1).max(500).optional(),
      pageToken: z.string().max(4096).optional(),
    }),
  ),
  getReviewRequest: request<ReviewRequest>()(
    z.strictObject({ environment: environmentNameSchema, id: z.string().trim().min(1).max(256) }),
  ),
  getPrivateTemplate: request<PrivateTemplate>()(
    z.strictObject({
      environment: environmentNameSchema,
      templateId: z.string().trim().min(1, 'Enter the template’s ID.').max(256),
    }),
  ),
}
