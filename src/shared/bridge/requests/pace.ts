/** Time left: the paces of earlier runs of the same template or listing in the history. */
import * as z from 'zod'
import type { EarlierPacesView } from '../views/pace'
import { environmentNameSchema, request } from './arguments'

const key = z.string().trim().min(1).max(256)

export const paceRequests = {
  /** Earlier finished runs' paces of each named template (by key) and listing (by id). */
  earlierPaces: request<EarlierPacesView>()(
    z.strictObject({
      environment: environmentNameSchema,
      templateKeys: z.array(key).max(50),
      listingIds: z.array(key).max(50),
    }),
  ),
}
