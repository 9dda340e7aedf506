// The buyer's read of a listing (DESIGN.md, "Buyer's view of a listing"), over real HTTP.
import { expect, it } from 'vitest'
import {
  listingInputSchemaSchema,
  marketListingSchema,
  paths,
  runDetailSchema,
} from '../../src/shared/contract'
import {
  BUYER_SANDBOX,
  BUYER_TOKEN,
  CREATOR_TOKEN,
  LISTING_FEE,
  LISTING_ID,
  LISTING_VERSION,
} from '../helpers/buyer-seed'
import { call, useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox(BUYER_SANDBOX)

it('shows a published listing to a buyer who does not own it, with schema and fee', async () => {
  const answer = await call(sandbox, paths.marketListing(LISTING_ID), { token: BUYER_TOKEN })
  expect(answer.status).toBe(200)
  const listing = marketListingSchema.parse(answer.body)
  expect(listing).toMatchObject({
    id: LISTING_ID,
    displayName: 'Ad copy',
    listingVersionId: LISTING_VERSION,
    publishedVersionId: LISTING_VERSION,
    taskFixedFeeT: LISTING_FEE,
    pricingRuleVersion: 'flat-task-fee-1',
    status: 'published',
    saleStatus: 'on_sale',
    executionAvailabilityStatus: 'available',
  })
  const schema = listingInputSchemaSchema.parse(JSON.parse(listing.inputSchemaSnapshot))
  expect(schema.fields.map((f) => f.label)).toEqual(['Product', 'Tone', 'Words'])
  // Creator-only fields stay with the creator.
  expect(answer.body).not.toHaveProperty('ownerUserId')
  expect(answer.body).not.toHaveProperty('reviewStatus')
})

it('answers 404 for a listing that is not published, even to its creator, and 401 without a token', async () => {
  for (const token of [BUYER_TOKEN, CREATOR_TOKEN]) {
    const answer = await call<{ error: string }>(sandbox, paths.marketListing('ada-draft'), {
      token,
    })
    expect(answer.status).toBe(404)
    expect(answer.body.error).toMatch(/published/)
  }
  expect((await call(sandbox, paths.marketListing('nope'))).status).toBe(404)
  expect((await call(sandbox, paths.marketListing(LISTING_ID), { token: null })).status).toBe(401)
})

it('keeps the listing actions apart: GET on :execute is a wrong method, not a listing', async () => {
  const wrong = await call(sandbox, paths.execute(LISTING_ID), { token: BUYER_TOKEN })
  expect(wrong.status).toBe(405)
})

it('puts a market key on every run detail: the context for a listing, {} for a template run', async () => {
  const template = await call<{ runId: string }>(sandbox, paths.runRows('tpl-echo'), {
    token: BUYER_TOKEN,
    body: { clientRequestId: `t-${Date.now()}`, rows: [{ message: 'hi' }] },
  })
  expect(template.status).toBe(202)
  const raw = await call<Record<string, unknown>>(sandbox, paths.run(template.body.runId), {
    token: BUYER_TOKEN,
  })
  expect(raw.body.market).toEqual({})
  // The client reads the empty object as "not a market run".
  expect(runDetailSchema.parse(raw.body).market).toBeUndefined()

  const executed = await call<{ runId: string }>(sandbox, paths.execute(LISTING_ID), {
    token: BUYER_TOKEN,
    body: {
      clientRequestId: `e-${Date.now()}`,
      confirm: true,
      listingVersionId: LISTING_VERSION,
      inputRows: [{ product: 'Kettle', tone: 'friendly' }],
    },
  })
  expect(executed.status).toBe(200)
  const market = await call(sandbox, paths.run(executed.body.runId), { token: BUYER_TOKEN })
  expect(runDetailSchema.parse(market.body).market).toMatchObject({
    listingId: LISTING_ID,
    taskFixedFeeT: LISTING_FEE,
  })
})
