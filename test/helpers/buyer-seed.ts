/**
 * A sandbox seed where the buyer does not own the listing it buys: Ada creates "Ad copy"
 * (published, 4 credits a row), Bea only buys. Workbooks for Bea are written with the listing's
 * own labels as headers ("Product", "Tone", "Words"), as a person would type them.
 */
import ExcelJS from 'exceljs'
import type { SandboxOptions, SeedFile } from '../../src/sandbox'
import { runCount } from './sandbox'

export const CREATOR_TOKEN = 'tok-ada'
export const BUYER_TOKEN = 'tok-bea'
export const LISTING_ID = 'ad-copy'
export const LISTING_VERSION = 'ad-copy-v3'
export const LISTING_FEE = 4

/** The listing Bea buys, as the Bridge names a target. */
export const LISTING_TARGET = {
  kind: 'listing',
  listingId: LISTING_ID,
  listingVersionId: LISTING_VERSION,
} as const
/** The same on the command line. */
export const LISTING_ARGS = ['--listing', LISTING_ID, '--version', LISTING_VERSION]

export const buyerSeed: SeedFile = {
  users: [
    { userId: 1, name: 'Ada', token: CREATOR_TOKEN },
    { userId: 2, name: 'Bea', token: BUYER_TOKEN },
  ],
  officialTemplates: [
    {
      skill: 'echo',
      taskCostT: 3,
      schema: {
        templateId: 'tpl-echo',
        name: 'Echo',
        columns: [{ fieldKey: 'message', headerLabel: 'Message', order: 0 }],
        fields: [{ key: 'message', label: 'Message', type: 'string', required: true }],
      },
    },
  ],
  marketListings: [
    {
      skill: 'echo',
      ownerUserId: 1,
      listing: {
        id: LISTING_ID,
        displayName: 'Ad copy',
        description: 'Short ad copy for a product.',
        listingVersionId: LISTING_VERSION,
        publishedVersionId: LISTING_VERSION,
        pricingRuleVersion: 'flat-task-fee-1',
        taskFixedFeeT: LISTING_FEE,
        status: 'published',
        saleStatus: 'on_sale',
        executionAvailabilityStatus: 'available',
      },
      schema: {
        columns: [
          { fieldKey: 'product', headerLabel: 'Product', order: 0 },
          { fieldKey: 'tone', headerLabel: 'Tone', order: 1 },
          { fieldKey: 'words', headerLabel: 'Words', order: 2 },
        ],
        fields: [
          { key: 'product', label: 'Product', type: 'string', required: true },
          {
            key: 'tone',
            label: 'Tone',
            type: 'enum',
            required: true,
            enumValues: ['friendly', 'formal'],
          },
          { key: 'words', label: 'Words', type: 'integer', required: false },
        ],
      },
    },
    {
      skill: 'echo',
      ownerUserId: 1,
      listing: {
        id: 'ada-draft',
        displayName: 'Draft',
        listingVersionId: 'draft-1',
        publishedVersionId: '',
        taskFixedFeeT: 2,
        status: 'pending_review',
        saleStatus: 'not_on_sale',
        executionAvailabilityStatus: 'unavailable',
      },
      schema: { columns: [], fields: [{ key: 'x', label: 'X', type: 'string' }] },
    },
  ],
}

/** A workbook with the listing's labels as headers and the given rows (product, tone, words). */
export async function writeBuyerWorkbook(
  path: string,
  rows: [string, string, number | null][],
): Promise<void> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Input')
  sheet.addRow(['Product', 'Tone', 'Words'])
  for (const row of rows) sheet.addRow(row)
  await book.xlsx.writeFile(path)
}

/** A test sandbox with this seed, where Bea (the buyer) is the one signed in. */
export const BUYER_SANDBOX: SandboxOptions = { seed: buyerSeed, tokens: [BUYER_TOKEN] }

/**
 * How many runs Bea has on the sandbox: what a test checks to see whether anything was sent (on
 * BUYER_SANDBOX her token is the sandbox's own, which runCount asks with).
 */
export const buyerRunCount = runCount
