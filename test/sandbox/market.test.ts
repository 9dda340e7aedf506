import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  creatorListingListSchema,
  executionResultSchema,
  listingInputSchemaSchema,
  paths,
  runListSchema,
  type CreatorListing,
} from '../../src/shared/contract'
import { call, requestId, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

const pressRow = { headline: 'Acme opens a plant', draft: 'Acme opened a new plant today. It employs 200 people.' }

describe('sandbox: marketplace execute', () => {
  let sb: TestSandbox
  let listings: Map<string, CreatorListing>

  beforeAll(async () => {
    sb = await startTestSandbox()
    const result = await call(sb, paths.creatorListings())
    listings = new Map(creatorListingListSchema.parse(result.body).items.map((l) => [l.id, l]))
  })
  afterAll(() => sb.close())

  const execute = (listingId: string, body: Record<string, unknown>) =>
    call<Record<string, unknown>>(sb, paths.execute(listingId), { body })

  it('executes a published listing: twelve market fields, then settled with final costs', async () => {
    const listing = listings.get('press-release-polisher')!
    expect(listing.taskFixedFeeT).toBe(12)
    const snapshot = listingInputSchemaSchema.parse(JSON.parse(listing.inputSchemaSnapshot))
    expect(snapshot.fields.map((f) => f.key)).toContain('headline')

    const result = await execute(listing.id, {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: listing.listingVersionId,
      inputRows: [pressRow, pressRow, { ...pressRow, headline: 'Bad [[fail]] one' }],
    })
    expect(result.status).toBe(200)
    expect(Object.keys(result.body).sort()).toEqual(
      [
        'listingId',
        'listingVersionId',
        'runId',
        'runTransactionId',
        'skillName',
        'transactionStatus',
        'pricingRuleVersion',
        'taskFixedFeeT',
        'estimatedExecutionCostT',
        'actualExecutionCostT',
        'estimatedBuyerPayableT',
        'finalBuyerPayableT',
      ].sort(),
    )
    const execution = executionResultSchema.parse(result.body)
    expect(execution).toMatchObject({
      listingId: listing.id,
      listingVersionId: listing.listingVersionId,
      transactionStatus: 'authorized',
      taskFixedFeeT: 12,
      estimatedExecutionCostT: 36,
      estimatedBuyerPayableT: 36,
      finalBuyerPayableT: 0,
    })

    const detail = await waitForRun(sb, execution.runId)
    expect(detail.run).toMatchObject({
      sourceType: 'market',
      status: 'succeeded',
      completedTasks: 2,
      failedTasks: 1,
      estimatedCostT: 36,
      actualCostT: 24,
    })
    expect(detail.market).toMatchObject({
      runId: execution.runId,
      runTransactionId: execution.runTransactionId,
      transactionStatus: 'settled',
      actualExecutionCostT: 24,
      finalBuyerPayableT: 24,
    })
    expect(detail.run.market?.transactionStatus).toBe('settled')
    const inList = runListSchema.parse((await call(sb, paths.runs())).body).items.find((r) => r.runId === execution.runId)
    expect(inList?.market?.listingId).toBe(listing.id)
  })

  it('releases the transaction when every task fails', async () => {
    const listing = listings.get('review-keyword-miner')!
    const result = await execute(listing.id, {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: listing.listingVersionId,
      inputRows: [{ reviewText: '[[fail]] please' }],
    })
    const execution = executionResultSchema.parse(result.body)
    const detail = await waitForRun(sb, execution.runId)
    expect(detail.run.status).toBe('failed')
    expect(detail.market).toMatchObject({ transactionStatus: 'released', actualExecutionCostT: 0, finalBuyerPayableT: 0 })
    expect(detail.tasks[0]!.errorMessage).toContain('reviewText')
  })

  it('executes another creator\'s published listing, which is not among my listings', async () => {
    expect(listings.has('invoice-fingerprint')).toBe(false)
    const result = await execute('invoice-fingerprint', {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: 'invoice-fingerprint-v1',
      inputRows: [{ invoice: { url: 'https://files.example.com/inv-1.pdf' }, supplier: 'Northwind' }],
    })
    expect(result.status).toBe(200)
    const detail = await waitForRun(sb, executionResultSchema.parse(result.body).runId)
    expect(detail.run.status).toBe('succeeded')
    expect(detail.market?.finalBuyerPayableT).toBe(20)
  })

  it('requires confirm to be true', async () => {
    const listing = listings.get('press-release-polisher')!
    for (const confirm of [false, undefined, 'yes']) {
      const result = await execute(listing.id, {
        clientRequestId: requestId(),
        confirm,
        listingVersionId: listing.listingVersionId,
        inputRows: [pressRow],
      })
      expect(result.status, String(confirm)).toBe(400)
      expect(String(result.body.error)).toMatch(/confirm/)
    }
  })

  it('answers 409 for a listing that cannot be executed or a version that is not current', async () => {
    const pending = await execute('recipe-scaler', {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: 'recipe-scaler-v1',
      inputRows: [{ recipe: 'x', servings: 2 }],
    })
    expect(pending.status).toBe(409)
    expect(String(pending.body.error)).toMatch(/pending_review/)

    const draftAhead = await execute('meeting-notes-tagger', {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: 'meeting-notes-tagger-v2',
      inputRows: [{ notes: 'x' }],
    })
    expect(draftAhead.status).toBe(409)
    expect(String(draftAhead.body.error)).toMatch(/published version/)

    const oldVersion = await execute('press-release-polisher', {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: 'press-release-polisher-v0',
      inputRows: [pressRow],
    })
    expect(oldVersion.status).toBe(409)
    expect(String(oldVersion.body.error)).toMatch(/press-release-polisher-v1/)
  })

  it('answers 404 for an unknown listing', async () => {
    const result = await execute('no-such-listing', {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: 'v1',
      inputRows: [{}],
    })
    expect(result.status).toBe(404)
    expect(String(result.body.error)).toContain('no-such-listing')
  })

  it('validates input rows and the body', async () => {
    const listing = listings.get('press-release-polisher')!
    const base = { confirm: true, listingVersionId: listing.listingVersionId }
    const badRows = await execute(listing.id, {
      ...base,
      clientRequestId: requestId(),
      inputRows: [{ headline: 'x' }, { ...pressRow, audience: 'aliens' }],
    })
    expect(badRows.status).toBe(400)
    expect(String(badRows.body.error)).toMatch(/inputRows\[0\]\.draft: is required/)
    expect(String(badRows.body.error)).toMatch(/inputRows\[1\]\.audience/)
    const missing = await execute(listing.id, { ...base, clientRequestId: requestId() })
    expect(missing.status).toBe(400)
    expect(String(missing.body.error)).toMatch(/inputRows is missing/)
    const noId = await execute(listing.id, { ...base, inputRows: [pressRow] })
    expect(noId.status).toBe(400)
    expect(String(noId.body.error)).toMatch(/clientRequestId/)
  })

  it('runs one execution and one transaction for a resent request; 409 for the same id with other rows', async () => {
    const listing = listings.get('press-release-polisher')!
    const body = {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: listing.listingVersionId,
      inputRows: [pressRow],
    }
    const before = runListSchema.parse((await call(sb, paths.runs())).body).totalCount
    const first = await execute(listing.id, body)
    const second = await execute(listing.id, body)
    expect(first.status).toBe(200)
    expect(second.body).toEqual(first.body)
    expect(runListSchema.parse((await call(sb, paths.runs())).body).totalCount).toBe(before + 1)
    const changed = await execute(listing.id, { ...body, inputRows: [pressRow, pressRow] })
    expect(changed.status).toBe(409)
  })
})
