/** Market Listings, as a buyer: read a published listing, validate a workbook for it, execute. */
import {
  executionResultSchema,
  marketListingSchema,
  paths,
  workbookValidationSchema,
  type ExecuteBody,
  type WorkbookValidation,
} from '../../../shared/contract'
import { byteArrayJsonBody } from '../bodies'
import { getById, postRowsTo } from './calls'
import type { CallOptions, Transport } from '../transport'

export interface ValidateWorkbookRequest {
  clientRequestId: string
  confirm: boolean
  filename: string
  listingVersionId: string
  /** The workbook's bytes; sent as the interface's array of integers. */
  content: Uint8Array
}

/** GET marketListings/{id}: the buyer's view of a published listing (DESIGN.md). */
export const marketListing = getById('marketListing', paths.marketListing, marketListingSchema)

/**
 * POST :execute, its rows streamed. Spends money: call only after the user confirmed
 * (body.confirm).
 */
export const execute = postRowsTo<typeof executionResultSchema, ExecuteBody, 'inputRows'>(
  'execute',
  paths.execute,
  executionResultSchema,
  'inputRows',
)

/** POST :validateWorkbook, the bytes streamed as the interface's integer array. */
export function validateWorkbook(
  transport: Transport,
  listingId: string,
  request: ValidateWorkbookRequest,
  options?: CallOptions,
): Promise<WorkbookValidation> {
  const { content, ...rest } = request
  return transport.request(
    {
      name: 'validateWorkbook',
      path: paths.validateWorkbook(listingId),
      answer: workbookValidationSchema,
      body: byteArrayJsonBody(rest, 'content', content),
    },
    options,
  )
}
