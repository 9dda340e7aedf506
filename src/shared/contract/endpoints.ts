/**
 * The endpoint catalog: every path of the interface with its method, the query parameter names
 * and limits decided in DESIGN.md, and the schema of its answer. The client, the sandbox and the
 * tests all read paths from here, so a path is written once.
 */
import type * as z from 'zod'
import {
  creatorListingListSchema,
  executionResultSchema,
  inputAssetSchema,
  marketListingSchema,
  officialTemplateSchemaSchema,
  privateTemplateSchema,
  reviewRequestSchema,
  runDetailSchema,
  runListSchema,
  runRowsAcceptanceSchema,
  workbookValidationSchema,
} from './resources'

export const API_PREFIX = '/svc/v1'
export const INTERFACE_VERSION = 'market-v1'

export const PAGE_LIMITS = {
  runs: { default: 50, max: 200 },
  listings: { default: 100, max: 500 },
} as const

/** The only sort expression the creator listings endpoint supports (spec, Limits). */
export const LISTINGS_ORDER_BY = 'createdAt desc'
/** Runs are listed newest first; the sandbox also accepts `createdAt asc`. */
export const RUNS_ORDER_BY = ['createdAt desc', 'createdAt asc'] as const

/** Query parameter names (DESIGN.md: the interface leaves them open). */
export const QUERY = {
  runs: { status: 'status', pageSize: 'pageSize', pageToken: 'pageToken', orderBy: 'orderBy' },
  listings: { search: 'search', pageSize: 'pageSize', pageToken: 'pageToken', orderBy: 'orderBy' },
} as const

const enc = encodeURIComponent

export const paths = {
  healthz: () => '/healthz',
  version: () => '/version',
  models: () => `${API_PREFIX}/models`,
  /** The buyer's view of a listing (DESIGN.md decision; not in the interface's list). */
  marketListing: (listingId: string) => `${API_PREFIX}/marketListings/${enc(listingId)}`,
  execute: (listingId: string) => `${API_PREFIX}/marketListings/${enc(listingId)}:execute`,
  validateWorkbook: (listingId: string) =>
    `${API_PREFIX}/marketListings/${enc(listingId)}:validateWorkbook`,
  runRows: (templateId: string) => `${API_PREFIX}/officialTemplates/${enc(templateId)}:runRows`,
  upload: () => `${API_PREFIX}/inputAssets:upload`,
  creatorListings: () => `${API_PREFIX}/creators/me/marketListings`,
  templateSchema: (templateId: string) =>
    `${API_PREFIX}/officialTemplates/${enc(templateId)}/schema`,
  runs: () => `${API_PREFIX}/users/me/runs`,
  run: (runId: string) => `${API_PREFIX}/users/me/runs/${enc(runId)}`,
  privateTemplate: (templateId: string) => `${API_PREFIX}/users/me/templates/${enc(templateId)}`,
  reviewRequest: (id: string) => `${API_PREFIX}/creators/me/marketReviewRequests/${enc(id)}`,
} as const

export type EndpointName = keyof typeof paths

export interface EndpointInfo {
  method: 'GET' | 'POST'
  /** Needs the bearer token. */
  auth: boolean
  /** Safe to resend: a GET, or a POST carrying a clientRequestId. */
  idempotent: boolean
  response?: z.ZodType
}

/** A call with the token, safe to resend (a GET, or a POST carrying a clientRequestId). */
const signed = (method: EndpointInfo['method'], response: z.ZodType): EndpointInfo => ({
  method,
  auth: true,
  idempotent: true,
  response,
})

export const endpoints: Record<EndpointName, EndpointInfo> = {
  healthz: { method: 'GET', auth: false, idempotent: true },
  version: { method: 'GET', auth: false, idempotent: true },
  models: { method: 'GET', auth: true, idempotent: true },
  marketListing: signed('GET', marketListingSchema),
  execute: signed('POST', executionResultSchema),
  validateWorkbook: signed('POST', workbookValidationSchema),
  runRows: signed('POST', runRowsAcceptanceSchema),
  // An upload has no clientRequestId: resending it could make a second asset, which is harmless
  // (assets are not charged) but it is not sent again without the caller asking.
  upload: { method: 'POST', auth: true, idempotent: false, response: inputAssetSchema },
  creatorListings: signed('GET', creatorListingListSchema),
  templateSchema: signed('GET', officialTemplateSchemaSchema),
  runs: signed('GET', runListSchema),
  run: signed('GET', runDetailSchema),
  privateTemplate: signed('GET', privateTemplateSchema),
  reviewRequest: signed('GET', reviewRequestSchema),
}
