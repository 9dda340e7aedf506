/**
 * A marketplace listing as a buyer sees it (DESIGN.md, "Buyer's view of a listing"): its input
 * schema, fee and terms, whoever created it. Tried in order:
 *   1. the service's buyer view, `GET /svc/v1/marketListings/{id}`;
 *   2. when the service does not have that read (404/405/501): the buyer's own creator listing;
 *   3. with a workbook in hand: the column mapping a workbook generated for the listing keeps in
 *      its hidden sheet: the schema it carries (types too, so cells are typed as for a template),
 *      or for an older workbook its field keys and headers alone (cells then go as text);
 *   4. the workbook's headers taken as field keys (case and spaces ignored).
 * From 3 on the fee is unknown: the confirmation says so and offers a pilot.
 */
import { amountT, type AmountT } from '../../../shared/format/amounts'
import {
  listingInputSchemaSchema,
  type CreatorListing,
  type InputRow,
  type ListingInputSchema,
  type MarketListing,
} from '../../../shared/contract'
import type { ListingSource, ListingView } from '../../../shared/bridge'
import { plainField } from '../../../shared/input-schema'
import { ApiError, type ApiClient } from '../../service'
import { SHEETS } from '../../workbooks'
import { openXlsx } from '../../workbooks'

/**
 * What the engine knows of a listing: its terms and where they came from, as the Bridge's view
 * names them, with the input schema whole (null when it is not known yet) instead of the view's
 * columns and fields.
 */
export type BuyerListing = Pick<
  ListingView,
  | 'listingId'
  | 'displayName'
  | 'description'
  | 'listingVersionId'
  | 'publishedVersionId'
  | 'pricingRuleVersion'
  | 'status'
  | 'saleStatus'
  | 'executionAvailabilityStatus'
  | 'source'
> & { taskFixedFeeT: AmountT | null; schema: ListingInputSchema | null }

/** Statuses that mean "this service has no buyer's read of listings". */
const NO_BUYER_VIEW = new Set([404, 405, 501])

/** The listing's schema from its snapshot text, or null when absent or unreadable. */
export function schemaOfSnapshot(snapshot: string): ListingInputSchema | null {
  if (!snapshot) return null
  try {
    const parsed = listingInputSchemaSchema.safeParse(JSON.parse(snapshot))
    return parsed.success && parsed.data.fields.length > 0 ? parsed.data : null
  } catch {
    return null
  }
}

/** The engine's view of a listing the service described, as a buyer or as its creator. */
function fromService(
  listing: MarketListing | CreatorListing,
  source: 'market' | 'creator',
): BuyerListing {
  return {
    listingId: listing.id,
    displayName: listing.displayName,
    description: listing.description,
    listingVersionId: listing.listingVersionId,
    publishedVersionId: listing.publishedVersionId,
    taskFixedFeeT: amountT(listing.taskFixedFeeT),
    pricingRuleVersion: listing.pricingRuleVersion,
    status: listing.status,
    saleStatus: listing.saleStatus,
    executionAvailabilityStatus: listing.executionAvailabilityStatus,
    schema: schemaOfSnapshot(listing.inputSchemaSnapshot),
    source,
  }
}

function unknownListing(listingId: string, listingVersionId = ''): BuyerListing {
  return {
    listingId,
    displayName: '',
    description: '',
    listingVersionId,
    publishedVersionId: listingVersionId,
    taskFixedFeeT: null,
    pricingRuleVersion: '',
    status: '',
    saleStatus: '',
    executionAvailabilityStatus: '',
    schema: null,
    source: 'none',
  }
}

/**
 * Steps 1 and 2: the service's buyer view, else the buyer's own creator listing, else nothing
 * known (source 'none'). Errors other than "no such read" (401, unreachable...) are thrown.
 */
export async function buyerListing(
  client: ApiClient,
  listingId: string,
  signal?: AbortSignal,
): Promise<BuyerListing> {
  try {
    return fromService(await client.marketListing(listingId, { signal }), 'market')
  } catch (error) {
    if (!(error instanceof ApiError && error.kind === 'http' && NO_BUYER_VIEW.has(error.status))) {
      throw error
    }
  }
  const own = await client
    .listAllCreatorListings({}, { signal })
    .then((all) => all.find((l) => l.id === listingId) ?? null)
    .catch(() => null)
  return own ? fromService(own, 'creator') : unknownListing(listingId)
}

/**
 * Step 3: the mapping sheet of a workbook generated for a listing (column letter, field key,
 * header). Null when the file has none (csv, a workbook made by hand) or cannot be read.
 */
export async function schemaFromWorkbookMapping(
  path: string,
  listingId: string,
): Promise<ListingInputSchema | null> {
  try {
    const book = await openXlsx({ path })
    const sheet = book.sheets.find((s) => s.name.toLowerCase() === SHEETS.mapping.toLowerCase())
    if (!sheet) return null
    let madeFor = ''
    let madeForListing = ''
    const columns: { fieldKey: string; headerLabel: string; order: number }[] = []
    const schemaParts: string[] = []
    let schemaChars = 0
    await book.rows(sheet, (cells) => {
      const [a, b, c] = cells.map((v) => (v === null || v === undefined ? '' : String(v).trim()))
      if (a === 'templateId') madeFor = b ?? ''
      else if (a === 'listingId') madeForListing = b ?? ''
      // Not trimmed: a part may end inside a string of the JSON.
      else if (a === 'schema' && typeof cells[1] === 'string') {
        schemaChars += cells[1].length
        if (schemaChars <= MAX_CARRIED_SCHEMA_CHARS) schemaParts.push(cells[1])
      } else if (a && b && /^[A-Z]{1,3}$/.test(a))
        columns.push({ fieldKey: b, headerLabel: c || b, order: columns.length })
    })
    if ((madeFor !== listingId && madeForListing !== listingId) || columns.length === 0) return null
    // A sheet claiming a larger schema was not made by Skill Runner: its columns alone are used.
    const carried = schemaChars <= MAX_CARRIED_SCHEMA_CHARS ? schemaFromParts(schemaParts) : null
    if (carried) return carried
    return {
      columns,
      fields: columns.map((c) => plainField(c.fieldKey, c.headerLabel, 'generic')),
    }
  } catch {
    return null
  }
}

/** The most schema JSON a hidden sheet may carry (a generous listing is well under 1 MB). */
const MAX_CARRIED_SCHEMA_CHARS = 8 * 1024 * 1024

/** The schema a generated workbook carries in its hidden sheet; null when absent or damaged. */
function schemaFromParts(parts: string[]): ListingInputSchema | null {
  if (parts.length === 0) return null
  try {
    const parsed = listingInputSchemaSchema.safeParse(JSON.parse(parts.join('')))
    return parsed.success && parsed.data.fields.length > 0 ? parsed.data : null
  } catch {
    return null
  }
}

/** Step 4: a header as a field key: trimmed, lower case, spaces and dashes as underscores. */
export function headerAsKey(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
}

/** Rows read without a schema (keyed by header text) re-keyed by headerAsKey. */
export function rowsByHeaderKeys(rows: InputRow[]): InputRow[] {
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([header, value]) => [headerAsKey(header), value])),
  )
}

const SOURCE_NOTES: Record<ListingSource, string> = {
  market: 'Schema, fee and terms as the service shows them to buyers.',
  creator: 'Schema, fee and terms from your own creator listing.',
  workbook:
    'The service does not show this listing to buyers: columns from the workbook generated for it; the fee is unknown until a run ends.',
  headers:
    'The service does not show this listing to buyers: columns matched by their headers; the fee is unknown until a run ends.',
  none: 'The service does not show this listing to buyers: its schema and fee are unknown until a run ends.',
}

export function sourceNote(source: ListingSource): string {
  return SOURCE_NOTES[source]
}
