/**
 * The templates and listings a run is made from, as a caller may see them: an official template
 * by id, a listing the caller may buy (or owns), and whether a listing can be executed now.
 */
import {
  creatorListingSchema,
  isExecutableListing,
  listingInputSchemaSchema,
  type CreatorListing,
  type ListingInputSchema,
} from '../shared/contract'
import { type Db, type ListingRow, type OfficialTemplateRow, getRow } from './db'
import { conflict, notFound } from './http'

export function findOfficialTemplate(db: Db, templateId: string): OfficialTemplateRow {
  const template = getRow<OfficialTemplateRow>(
    db,
    'SELECT * FROM official_templates WHERE template_id = ?',
    templateId,
  )
  if (!template) {
    throw notFound(`There is no official template "${templateId}". Check the template ID.`)
  }
  return template
}

export interface VisibleListing {
  row: ListingRow
  listing: CreatorListing
  schema: ListingInputSchema
}

/**
 * A listing the caller may act on as a buyer: any published listing, and the caller's own in
 * any state. Everything else is 404, as if it did not exist.
 */
export function findVisibleListing(db: Db, userId: number, listingId: string): VisibleListing {
  const row = getRow<ListingRow>(
    db,
    'SELECT * FROM market_listings WHERE listing_id = ?',
    listingId,
  )
  const listing = row ? creatorListingSchema.parse(JSON.parse(row.listing_json)) : undefined
  if (!row || !listing || (row.owner_user_id !== userId && listing.status !== 'published')) {
    throw notFound(`There is no marketplace listing "${listingId}". Check the listing ID.`)
  }
  return { row, listing, schema: listingInputSchemaSchema.parse(JSON.parse(row.schema_json)) }
}

/** 409 unless the listing can be executed at the version the buyer confirmed. */
export function requireExecutable(listing: CreatorListing, listingVersionId: string): void {
  if (!isExecutableListing(listing)) {
    const reasons: string[] = []
    if (listing.status !== 'published')
      reasons.push(`its status is "${listing.status}", not published`)
    if (listing.saleStatus !== 'on_sale')
      reasons.push(`its sale status is "${listing.saleStatus}", not on_sale`)
    if (listing.executionAvailabilityStatus !== 'available') {
      reasons.push(
        `its execution availability is "${listing.executionAvailabilityStatus}", not available`,
      )
    }
    if (listing.listingVersionId !== listing.publishedVersionId) {
      reasons.push(
        `its current version ${listing.listingVersionId || '(none)'} is not the published version ${listing.publishedVersionId || '(none)'}`,
      )
    }
    throw conflict(`Listing "${listing.id}" cannot be executed now: ${reasons.join('; ')}.`)
  }
  if (listingVersionId !== listing.listingVersionId) {
    throw conflict(
      `Listing "${listing.id}" is at version ${listing.listingVersionId}, but the request is for version ${listingVersionId}. Validate the workbook against the current version and confirm again.`,
    )
  }
}
