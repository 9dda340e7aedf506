// The catalog put together from the user's runs, the creator's listings, this computer's
// journal and the saved templates: one entry each, the latest version the user ran offered
// first, a row's cost from the latest run, and a run counted once when both places know it.
import { describe, expect, it } from 'vitest'
import { buildCatalog, type UsedHere } from '../../src/core/flows/catalog/merge'
import type { CreatorListing, MarketContext } from '../../src/shared/contract'
import { runSummary } from '../helpers/run-fixtures'

const market = (over: Partial<MarketContext>): MarketContext => ({
  listingId: 'ad-copy',
  listingVersionId: 'v1',
  runId: '',
  runTransactionId: '',
  skillName: 'Ad copy',
  transactionStatus: '',
  pricingRuleVersion: '',
  taskFixedFeeT: 4,
  estimatedExecutionCostT: 0,
  actualExecutionCostT: 0,
  estimatedBuyerPayableT: 0,
  finalBuyerPayableT: 0,
  ...over,
})

const ownListing = (over: Partial<CreatorListing>): CreatorListing =>
  ({
    id: 'ad-copy',
    displayName: 'Ad copy',
    description: 'Short ad copy.',
    listingVersionId: 'v3',
    publishedVersionId: 'v3',
    ...over,
  }) as CreatorListing

describe('the catalog from what is known', () => {
  it('merges runs, listings, the journal and templates into one entry each', () => {
    const items = buildCatalog({
      templates: [
        {
          templateId: 'row-echo',
          name: 'Row echo',
          description: 'Echoes rows.',
          source: 'builtin',
          fetchedAtMs: null,
        },
      ],
      runs: [
        runSummary({
          runId: 'r2',
          createdAtUnix: 200,
          totalTasks: 2,
          market: market({ listingVersionId: 'v2', finalBuyerPayableT: 10 }),
        }),
        runSummary({
          runId: 'r1',
          createdAtUnix: 100,
          totalTasks: 3,
          market: market({ finalBuyerPayableT: 12 }),
        }),
        runSummary({
          runId: 'r0',
          createdAtUnix: 50,
          totalTasks: 4,
          templateKey: 'row-echo',
          templateName: 'Row echo',
          actualCostT: 0,
          estimatedCostT: 0,
          market: undefined,
        }),
      ],
      ownListings: [ownListing({})],
      usedHere: [
        // r2 is the service's run too: its rows are counted once.
        {
          targetKind: 'listing',
          targetId: 'ad-copy',
          listingVersionId: 'v2',
          runId: 'r2',
          rowCount: 2,
          updatedAtMs: 200_500,
        },
        {
          targetKind: 'template',
          targetId: 'invoice-x',
          listingVersionId: '',
          runId: 'r9',
          rowCount: 7,
          updatedAtMs: 300_000,
        },
      ] satisfies UsedHere[],
    })
    expect(items.map((i) => `${i.kind}:${i.id}`)).toEqual([
      'template:invoice-x',
      'listing:ad-copy',
      'template:row-echo',
    ])
    const listing = items[1]!
    expect(listing).toMatchObject({
      name: 'Ad copy',
      description: 'Short ad copy.',
      versionId: 'v2',
      source: 'runs',
      sources: ['runs', 'this-computer', 'own-listing'],
      lastUsedAtUnix: 200,
      lastCostPerRowT: 5,
      rowsRun: 5,
    })
    expect(listing.versions.map((v) => [v.versionId, v.source])).toEqual([
      ['v2', 'runs'],
      ['v1', 'runs'],
      ['v3', 'own-listing'],
    ])
    expect(items[0]).toMatchObject({
      name: 'invoice-x',
      source: 'this-computer',
      rowsRun: 7,
      lastUsedAtUnix: 300,
    })
    expect(items[0]!.lastCostPerRowT).toBeUndefined()
    expect(items[2]).toMatchObject({
      name: 'Row echo',
      sources: ['runs', 'sandbox'],
      rowsRun: 4,
      lastCostPerRowT: 0,
    })
  })

  it('offers a listing the user never ran at the version its creator shows', () => {
    const [only] = buildCatalog({
      templates: [],
      runs: [],
      usedHere: [],
      ownListings: [ownListing({ publishedVersionId: '' })],
    })
    expect(only).toMatchObject({
      kind: 'listing',
      versionId: 'v3',
      source: 'own-listing',
      rowsRun: 0,
    })
    expect(only!.lastUsedAtUnix).toBeUndefined()
  })

  it('offers the creator’s listings that can be run now before retired ones', () => {
    const items = buildCatalog({
      templates: [],
      runs: [],
      usedHere: [],
      ownListings: [
        ownListing({ id: 'old', status: 'unlisted', executionAvailabilityStatus: 'unavailable' }),
        ownListing({ id: 'live', status: 'published', executionAvailabilityStatus: 'available' }),
      ],
    })
    expect(items.map((i) => i.id)).toEqual(['live', 'old'])
  })
})
