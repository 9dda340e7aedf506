import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  creatorListingListSchema,
  inputAssetSchema,
  paths,
  privateTemplateSchema,
  reviewRequestSchema,
  runListSchema,
} from '../../src/shared/contract'
import { call, requestId, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

describe('sandbox: one user never sees another user\'s data', () => {
  let sb: TestSandbox
  const alice = 'tok-alice'
  const bob = 'tok-bob'
  let aliceRunId = ''
  let aliceArtifactUrl = ''
  let aliceAssetId = ''

  beforeAll(async () => {
    // The demo content belongs to the first token's user: Alice.
    sb = await startTestSandbox({ tokens: [alice, bob] })
    const upload = await call(sb, paths.upload(), {
      token: alice,
      body: { content: Buffer.from('secret').toString('base64'), contentType: 'text/plain', filename: 's.txt' },
    })
    aliceAssetId = inputAssetSchema.parse(upload.body).inputAssetId
    const accepted = await call<{ runId: string }>(sb, paths.runRows('document-digest'), {
      token: alice,
      body: { clientRequestId: requestId(), rows: [{ title: 'Secret', document: { inputAssetId: aliceAssetId } }] },
    })
    aliceRunId = accepted.body.runId
    const detail = await waitForRun(sb, aliceRunId, alice)
    aliceArtifactUrl = detail.artifacts[0]!.accessUrl
  })
  afterAll(() => sb.close())

  it('gives the demo content to the first user', async () => {
    const mine = creatorListingListSchema.parse((await call(sb, paths.creatorListings(), { token: alice })).body)
    expect(mine.items.length).toBeGreaterThanOrEqual(5)
    expect(new Set(mine.items.map((l) => l.status))).toEqual(
      new Set(['published', 'pending_review', 'rejected', 'unlisted']),
    )
    const template = privateTemplateSchema.parse(
      (await call(sb, paths.privateTemplate('weekly-status-report'), { token: alice })).body,
    )
    expect(template.versions.map((v) => v.versionNumber)).toEqual([1, 2])
    const review = reviewRequestSchema.parse(
      (await call(sb, paths.reviewRequest('review-recipe-scaler-1'), { token: alice })).body,
    )
    expect(review).toMatchObject({ listingId: 'recipe-scaler', status: 'pending' })
  })

  it('hides runs, artifacts, listings, templates and review requests from another user', async () => {
    expect(runListSchema.parse((await call(sb, paths.runs(), { token: bob })).body).totalCount).toBe(0)
    expect((await call(sb, paths.run(aliceRunId), { token: bob })).status).toBe(404)
    const artifact = await fetch(aliceArtifactUrl, { headers: { Authorization: `Bearer ${bob}` } })
    expect(artifact.status).toBe(404)
    expect(creatorListingListSchema.parse((await call(sb, paths.creatorListings(), { token: bob })).body).items).toEqual([])
    expect((await call(sb, paths.privateTemplate('weekly-status-report'), { token: bob })).status).toBe(404)
    expect((await call(sb, paths.reviewRequest('review-recipe-scaler-1'), { token: bob })).status).toBe(404)
  })

  it('answers unknown ids with the same 404 as foreign ones', async () => {
    const foreign = await call<{ error: string }>(sb, paths.run(aliceRunId), { token: bob })
    const unknown = await call<{ error: string }>(sb, paths.run('run_unknown'), { token: bob })
    expect(foreign.status).toBe(unknown.status)
    expect(foreign.body.error).toMatch(/no run/)
    expect((await call(sb, paths.privateTemplate('nope'), { token: alice })).status).toBe(404)
    expect((await call(sb, paths.reviewRequest('nope'), { token: alice })).status).toBe(404)
  })

  it('does not let another user use an uploaded asset', async () => {
    const result = await call<{ error: string }>(sb, paths.runRows('document-digest'), {
      token: bob,
      body: { clientRequestId: requestId(), rows: [{ title: 'Steal', document: { inputAssetId: aliceAssetId } }] },
    })
    expect(result.status).toBe(400)
    expect(result.body.error).toContain(aliceAssetId)
  })

  it('lets a buyer execute another creator\'s published listing, but not see an unpublished one', async () => {
    const bought = await call<{ runId: string }>(sb, paths.execute('review-keyword-miner'), {
      token: bob,
      body: {
        clientRequestId: requestId(),
        confirm: true,
        listingVersionId: 'review-keyword-miner-v1',
        inputRows: [{ reviewText: 'Great kettle, quick delivery' }],
      },
    })
    expect(bought.status).toBe(200)
    const detail = await waitForRun(sb, bought.body.runId, bob)
    expect(detail.run.status).toBe('succeeded')
    // The run is Bob's, not Alice's.
    expect((await call(sb, paths.run(bought.body.runId), { token: alice })).status).toBe(404)
    const hidden = await call(sb, paths.execute('recipe-scaler'), {
      token: bob,
      body: { clientRequestId: requestId(), confirm: true, listingVersionId: 'recipe-scaler-v1', inputRows: [{}] },
    })
    expect(hidden.status).toBe(404)
  })

  it('keeps clientRequestIds per user', async () => {
    const id = requestId()
    const a = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
      token: alice,
      body: { clientRequestId: id, rows: [{ message: 'a' }] },
    })
    const b = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
      token: bob,
      body: { clientRequestId: id, rows: [{ message: 'b' }] },
    })
    expect(a.status).toBe(202)
    expect(b.status).toBe(202)
    expect(a.body.runId).not.toBe(b.body.runId)
  })
})
