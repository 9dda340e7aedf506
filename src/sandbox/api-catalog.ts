/**
 * Handlers for everything that is not a run: system checks, models, uploads, template schemas,
 * private templates, creator listings and review requests.
 */
import { createHash } from 'node:crypto'
import {
  INTERFACE_VERSION,
  LISTINGS_ORDER_BY,
  PAGE_LIMITS,
  QUERY,
  uploadBodySchema,
  type CreatorListing,
  type InputAsset,
  type MarketListing,
} from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import { findOfficialTemplate, listingOf, readListing } from './run-targets'
import { type ListingRow, allRows, getRow, run } from './db'
import { badRequest, notFound, readJsonBody, validateBody } from './http'
import { newId, unixNow } from './ids'
import { normalizeOrderBy, parsePageSize } from './pagination'

export const SANDBOX_SERVICE_NAME = 'skill-runner-sandbox'

export function healthzHandler(): Answer {
  return { status: 200, body: { ok: true } }
}

export function versionHandler(): Answer {
  return {
    status: 200,
    body: {
      version: INTERFACE_VERSION,
      service: SANDBOX_SERVICE_NAME,
      apiPrefix: '/svc/v1',
      sandbox: true,
    },
  }
}

export function modelsHandler(): Answer {
  return {
    status: 200,
    body: {
      models: [
        {
          modelId: 'sandbox-echo-1',
          displayName: 'Sandbox echo',
          description: 'Returns its input.',
        },
        {
          modelId: 'sandbox-summary-1',
          displayName: 'Sandbox summarizer',
          description: 'First sentences of text fields.',
        },
        {
          modelId: 'sandbox-keywords-1',
          displayName: 'Sandbox keywords',
          description: 'Most frequent words.',
        },
        {
          modelId: 'sandbox-digest-1',
          displayName: 'Sandbox file digest',
          description: 'Size and SHA-256 of files.',
        },
      ],
    },
  }
}

// ---- upload ----------------------------------------------------------------------------------

/** Standard or URL-safe base64, padding optional, line breaks allowed. */
function decodeBase64(content: string): Buffer | undefined {
  const compact = content.replace(/[\r\n\t ]/g, '')
  const unpadded = compact.replace(/={1,2}$/, '')
  if (!/^[A-Za-z0-9+/_-]*$/.test(unpadded)) return undefined
  if (unpadded.length % 4 === 1) return undefined
  if (compact.length !== unpadded.length && compact.length % 4 !== 0) return undefined
  return Buffer.from(
    unpadded,
    unpadded.includes('-') || unpadded.includes('_') ? 'base64url' : 'base64',
  )
}

const MIME =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/

export async function uploadHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const body = validateBody(
    uploadBodySchema,
    await readJsonBody(call.req, ctx.maxBodyBytes, ctx.bodyBudget),
  )
  const bytes = decodeBase64(body.content)
  if (!bytes) {
    throw badRequest('content is not valid base64; encode the file bytes with standard base64.')
  }
  if (!MIME.test(body.contentType)) {
    throw badRequest(
      `contentType "${body.contentType}" is not a media type such as application/pdf.`,
    )
  }
  // Keep only the last path segment: a name, never a place on disk.
  const filename = body.filename.split(/[\\/]/).pop()?.trim() ?? ''
  const hasControl = [...filename].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  if (!filename || filename === '.' || filename === '..' || hasControl) {
    throw badRequest(`filename "${body.filename}" is not a usable file name.`)
  }
  if (filename.length > 255) throw badRequest('filename is longer than 255 characters.')
  const asset: InputAsset = {
    inputAssetId: newId('asset'),
    filename,
    mimeType: body.contentType.split(';')[0]!.trim().toLowerCase(),
    sizeBytes: bytes.length,
    uploadedAt: unixNow(),
  }
  await ctx.blobs.write(asset.inputAssetId, bytes)
  run(
    ctx.db,
    `INSERT INTO input_assets (asset_id, user_id, filename, mime_type, size_bytes, sha256, uploaded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    asset.inputAssetId,
    call.user.userId,
    asset.filename,
    asset.mimeType,
    asset.sizeBytes,
    createHash('sha256').update(bytes).digest('hex'),
    asset.uploadedAt,
  )
  return { status: 200, body: asset }
}

// ---- templates -------------------------------------------------------------------------------

export function templateSchemaHandler(ctx: SandboxContext, call: Call): Answer {
  const template = findOfficialTemplate(ctx.db, call.params[0]!)
  return { status: 200, body: JSON.parse(template.schema_json) as unknown }
}

export function privateTemplateHandler(ctx: SandboxContext, call: Call): Answer {
  return ownedEntry(ctx, call, 'private_templates', 'template', (id) => {
    return `There is no private template "${id}" among your templates.`
  })
}

/**
 * The entry of `table` (kept as JSON in its KIND_json column, under KIND_id) that the path
 * names, for its owner only: anyone else is told `missing`, as if it did not exist.
 */
function ownedEntry(
  ctx: SandboxContext,
  call: Call,
  table: 'private_templates' | 'review_requests',
  kind: 'template' | 'request',
  missing: (id: string) => string,
): Answer {
  const id = call.params[0]!
  const row = getRow<{ json: string }>(
    ctx.db,
    `SELECT ${kind}_json AS json FROM ${table} WHERE ${kind}_id = ? AND owner_user_id = ?`,
    id,
    call.user.userId,
  )
  if (!row) throw notFound(missing(id))
  return { status: 200, body: JSON.parse(row.json) as unknown }
}

// ---- creators --------------------------------------------------------------------------------

export function reviewRequestHandler(ctx: SandboxContext, call: Call): Answer {
  return ownedEntry(ctx, call, 'review_requests', 'request', (id) => {
    return `There is no review request "${id}" among your review requests.`
  })
}

export function creatorListingsHandler(ctx: SandboxContext, call: Call): Answer {
  const q = call.url.searchParams
  const names = QUERY.listings
  const search = (q.get(names.search) ?? '').trim()
  const pageSize = parsePageSize(q.get(names.pageSize), names.pageSize, PAGE_LIMITS.listings)
  const orderByRaw = q.get(names.orderBy)
  if (orderByRaw && orderByRaw.trim() && normalizeOrderBy(orderByRaw) !== LISTINGS_ORDER_BY) {
    throw badRequest(
      `${names.orderBy} "${orderByRaw}" is not supported; the only order is "${LISTINGS_ORDER_BY}".`,
    )
  }
  const scope = {
    kind: 'listings',
    userId: call.user.userId,
    query: JSON.stringify([search.toLowerCase()]),
  }
  const rows = allRows<ListingRow>(
    ctx.db,
    'SELECT * FROM market_listings WHERE owner_user_id = ? ORDER BY created_at_ms DESC, listing_id DESC',
    call.user.userId,
  )
  const needle = search.toLocaleLowerCase()
  const matching: { row: ListingRow; listing: CreatorListing }[] = []
  for (const row of rows) {
    const listing = listingOf(row)
    const haystack = `${listing.displayName}\n${listing.description}`.toLocaleLowerCase()
    if (!needle || haystack.includes(needle)) matching.push({ row, listing })
  }
  let start = 0
  const token = q.get(names.pageToken) ?? ''
  if (token) {
    const position = ctx.pageTokens.decode(token, scope)
    const [createdAt, id] = position
    if (typeof createdAt !== 'number' || typeof id !== 'string') {
      throw badRequest('pageToken is not valid for this list.')
    }
    // The first listing after the position in (created desc, id desc) order.
    start = matching.findIndex(
      ({ row }) =>
        row.created_at_ms < createdAt || (row.created_at_ms === createdAt && row.listing_id < id),
    )
    if (start < 0) start = matching.length
  }
  const page = matching.slice(start, start + pageSize)
  const last = page[page.length - 1]
  const more = start + pageSize < matching.length
  return {
    status: 200,
    body: {
      items: page.map((m) => m.listing),
      nextPageToken:
        more && last
          ? ctx.pageTokens.encode(scope, [last.row.created_at_ms, last.row.listing_id])
          : '',
    },
  }
}

// ---- buyer's view of a listing ---------------------------------------------------------------

/**
 * `GET /svc/v1/marketListings/{id}`: what any authenticated buyer may know of a published
 * listing (DESIGN.md, "Buyer's view of a listing"). A listing that is not published is 404 to
 * everyone, its creator included: the creator has the creator listings for that.
 */
export function marketListingHandler(ctx: SandboxContext, call: Call): Answer {
  const listingId = call.params[0]!
  const found = readListing(ctx.db, listingId)
  if (found?.listing.status !== 'published') {
    throw notFound(
      `There is no published marketplace listing "${listingId}". Check the listing ID.`,
    )
  }
  const { row, listing } = found
  const view: MarketListing = {
    id: listing.id,
    displayName: listing.displayName,
    description: listing.description,
    listingVersionId: listing.listingVersionId,
    publishedVersionId: listing.publishedVersionId,
    pricingRuleVersion: listing.pricingRuleVersion,
    taskFixedFeeT: listing.taskFixedFeeT,
    inputSchemaSnapshot: row.schema_json,
    status: listing.status,
    saleStatus: listing.saleStatus,
    executionAvailabilityStatus: listing.executionAvailabilityStatus,
  }
  return { status: 200, body: view }
}
