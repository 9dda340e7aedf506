/** Market Listings, as a buyer: read a published listing, validate a workbook for it, execute. */
import {
  executionResultSchema,
  marketListingSchema,
  paths,
  workbookValidationSchema,
  type ExecuteBody,
  type ExecutionResult,
  type MarketListing,
  type WorkbookValidation,
} from '../../../shared/contract'
import { byteArrayJsonBody } from '../bodies'
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
export function marketListing(
  transport: Transport,
  listingId: string,
  options?: CallOptions,
): Promise<MarketListing> {
  return transport.request(
    { name: 'marketListing', path: paths.marketListing(listingId), answer: marketListingSchema },
    options,
  )
}

/** POST :execute. Spends money: call only after the user confirmed (body.confirm). */
export function execute(
  transport: Transport,
  listingId: string,
  body: ExecuteBody,
  options?: CallOptions,
): Promise<ExecutionResult> {
  return transport.request(
    {
      name: 'execute',
      path: paths.execute(listingId),
      answer: executionResultSchema,
      body: { json: body },
    },
    options,
  )
}

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
