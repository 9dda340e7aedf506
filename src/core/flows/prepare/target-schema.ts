/**
 * What a workbook is checked against: a template's schema (fresh, or the saved copy offline) or a
 * listing's (the buyer's view, else the schema the workbook made for it carries), and the input
 * workbook made from it. A workbook made by the app names its target in its hidden sheet.
 */
import type { ListingInputSchema, OfficialTemplateSchema } from '../../../shared/contract'
import type { RunTarget } from '../../../shared/run-target'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { safeFileName } from '../downloads/downloads'
import { buyerListing, schemaFromWorkbookMapping } from '../listings/buyer-listing'
import { generateInputWorkbook, openXlsx, SHEETS } from '../../workbooks'
import type { Schemas } from './schema-cache'
import { templateFound, type TargetSchema } from './check-against'

export type { TargetSchema } from './check-against'

export async function targetSchema(
  services: { schemas: Pick<Schemas, 'template'> },
  connection: Connection,
  target: RunTarget,
  /** The workbook being checked: a listing's schema may come from its hidden sheet. */
  workbookPath?: string,
): Promise<TargetSchema> {
  if (target.kind === 'template') {
    return templateFound(
      target.templateId,
      await services.schemas.template(connection, target.templateId),
    )
  }
  // The buyer's view of the listing (DESIGN.md), then the workbook made for it.
  const listing = await buyerListing(connection.client, target.listingId)
  const schema =
    listing.schema ??
    (workbookPath ? await schemaFromWorkbookMapping(workbookPath, target.listingId) : null)
  if (!schema) {
    throw new EngineError(
      'not-found',
      `The service does not show the input form of listing “${target.listingId}” to your account.`,
      'Check the listing id, or drop a workbook made for this listing (its creator can give you one).',
    )
  }
  return {
    target,
    name: listing.displayName || target.listingId,
    schema: asTemplateSchema(target.listingId, listing.displayName, listing.description, schema),
    fromCache: false,
    fetchedAtMs: null,
  }
}

function asTemplateSchema(
  id: string,
  name: string,
  description: string,
  schema: ListingInputSchema,
): OfficialTemplateSchema {
  return {
    templateId: id,
    name,
    description,
    scenario: '',
    version: '',
    inputSummary: '',
    outputType: '',
    instructions: [],
    columns: schema.columns,
    fields: schema.fields,
    sampleRows: [],
  }
}

/** The suggested file name of a target's input workbook. */
export function inputWorkbookName(name: string): string {
  return `${safeFileName(name, 'input')} input.xlsx`
}

/** Writes the input workbook of a target to `outPath`. */
export async function writeInputWorkbook(found: TargetSchema, outPath: string): Promise<void> {
  await generateInputWorkbook(
    found.schema,
    outPath,
    found.target.kind === 'listing' ? { listing: found.target } : {},
  )
}

/**
 * The target a workbook made by the app names in its hidden sheet, or null (a csv, a workbook
 * from elsewhere, or one that cannot be read: the check that follows says what is wrong).
 */
export async function workbookTarget(path: string): Promise<RunTarget | null> {
  try {
    const book = await openXlsx({ path })
    const mapping = book.sheets.find((s) => s.name.toLowerCase() === SHEETS.mapping.toLowerCase())
    if (!mapping) return null
    const values = new Map<string, string>()
    await book.rows(mapping, (cells) => {
      const [a, b] = cells
      if (typeof a === 'string' && (typeof b === 'string' || typeof b === 'number'))
        values.set(a.trim(), String(b).trim())
    })
    const listingId = values.get('listingId')
    const listingVersionId = values.get('listingVersionId')
    if (listingId && listingVersionId) return { kind: 'listing', listingId, listingVersionId }
    const templateId = values.get('templateId')
    return templateId ? { kind: 'template', templateId } : null
  } catch {
    return null
  }
}

/** The published listing with this id, as a target to check against; null when there is none. */
export async function listingNamed(
  connection: Connection,
  listingId: string,
): Promise<RunTarget | null> {
  const listing = await buyerListing(connection.client, listingId).catch(() => null)
  if (!listing || listing.source === 'none') return null
  return {
    kind: 'listing',
    listingId: listing.listingId,
    listingVersionId: listing.publishedVersionId || listing.listingVersionId,
  }
}
