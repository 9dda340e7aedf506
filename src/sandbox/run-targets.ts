/**
 * The templates and listings a run is made from, as a caller may see them: an official template
 * by id, a listing the caller may buy (or owns), whether a listing can be executed now, and what
 * the runs table records of either (a SourceOfRun), the same for a run made now or seeded as past.
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

const PRICING_RULE_VERSION_DEFAULT = 'flat-task-fee-1'

/** What a run is made from (the runs table's source_type and what goes with it). */
export interface SourceOfRun {
  sourceType: 'official_template' | 'market'
  skill: string
  artifactMode: string
  schema: ListingInputSchema
  /** The template's id or the listing's. */
  key: string
  name: string
  definitionHash: string
  costPerTaskT: number
  /** A listing's: the version bought and the pricing rule it was priced by. */
  market?: { listingVersionId: string; pricingRuleVersion: string }
}

export function readOfficialTemplate(db: Db, templateId: string): OfficialTemplateRow | undefined {
  return getRow<OfficialTemplateRow>(
    db,
    'SELECT * FROM official_templates WHERE template_id = ?',
    templateId,
  )
}

/** A stored listing, its JSON read; undefined when there is none by that id. */
export function readListing(
  db: Db,
  listingId: string,
): { row: ListingRow; listing: CreatorListing } | undefined {
  const row = getRow<ListingRow>(
    db,
    'SELECT * FROM market_listings WHERE listing_id = ?',
    listingId,
  )
  return row && { row, listing: listingOf(row) }
}

/** A stored listing row's listing, its JSON read. */
export function listingOf(row: ListingRow): CreatorListing {
  return creatorListingSchema.parse(JSON.parse(row.listing_json))
}

export function findOfficialTemplate(db: Db, templateId: string): OfficialTemplateRow {
  const template = readOfficialTemplate(db, templateId)
  if (!template) {
    throw notFound(`There is no official template "${templateId}". Check the template ID.`)
  }
  return template
}

export function officialSource(template: OfficialTemplateRow): SourceOfRun {
  const stored = JSON.parse(template.schema_json) as { name?: string }
  return {
    sourceType: 'official_template',
    skill: template.skill,
    artifactMode: template.artifact_mode,
    schema: listingInputSchemaSchema.parse(stored),
    key: template.template_id,
    name: stored.name || template.template_id,
    definitionHash: template.definition_hash,
    costPerTaskT: template.task_cost_t,
  }
}

/** `schema`: the listing's input schema when the caller has read it already. */
export function listingSource(
  row: ListingRow,
  listing: CreatorListing,
  schema = listingSchemaOf(row),
): SourceOfRun {
  return {
    sourceType: 'market',
    skill: row.skill,
    artifactMode: row.artifact_mode,
    schema,
    key: listing.id,
    name: listing.displayName || listing.id,
    definitionHash: listing.packageHash,
    costPerTaskT: listing.taskFixedFeeT,
    market: {
      listingVersionId: listing.listingVersionId,
      pricingRuleVersion: listing.pricingRuleVersion || PRICING_RULE_VERSION_DEFAULT,
    },
  }
}

function listingSchemaOf(row: ListingRow): ListingInputSchema {
  return listingInputSchemaSchema.parse(JSON.parse(row.schema_json))
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
  const found = readListing(db, listingId)
  if (!found || (found.row.owner_user_id !== userId && found.listing.status !== 'published')) {
    throw notFound(`There is no marketplace listing "${listingId}". Check the listing ID.`)
  }
  return { ...found, schema: listingSchemaOf(found.row) }
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
