import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  creatorListingListSchema,
  PAGE_LIMITS,
  paths,
  QUERY,
  runListSchema,
  type RunSummary,
} from '../../src/shared/contract'
import type { SeedFile } from '../../src/sandbox'
import { call, requestId, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

function query(params: Record<string, string | number>): string {
  return `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
}

describe('sandbox: run list pages, filters and order', () => {
  let sb: TestSandbox
  const created: string[] = []

  beforeAll(async () => {
    sb = await startTestSandbox({ tokens: ['tok-lists', 'tok-other'] })
    for (let i = 0; i < 7; i += 1) {
      const rows = i % 3 === 0 ? [{ message: `[[fail]] ${i}` }] : [{ message: `run ${i}` }]
      const result = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
        body: { clientRequestId: requestId(), rows },
      })
      created.push(result.body.runId)
    }
    for (const runId of created) await waitForRun(sb, runId)
  })
  afterAll(() => sb.close())

  async function allPages(params: Record<string, string | number>): Promise<{ items: RunSummary[]; totals: number[] }> {
    const items: RunSummary[] = []
    const totals: number[] = []
    let token = ''
    for (let page = 0; page < 20; page += 1) {
      const result = await call(sb, paths.runs() + query({ ...params, ...(token ? { [QUERY.runs.pageToken]: token } : {}) }))
      expect(result.status).toBe(200)
      const list = runListSchema.parse(result.body)
      items.push(...list.items)
      totals.push(list.totalCount)
      token = list.nextPageToken
      if (!token) return { items, totals }
    }
    throw new Error('too many pages')
  }

  it('pages newest first to the last page, which has an empty nextPageToken', async () => {
    const { items, totals } = await allPages({ [QUERY.runs.pageSize]: 3 })
    expect(items.map((r) => r.runId)).toEqual([...created].reverse())
    expect(totals).toEqual([7, 7, 7])
    const first = runListSchema.parse((await call(sb, paths.runs())).body)
    expect(first.items).toHaveLength(7)
    expect(first.nextPageToken).toBe('')
  })

  it('orders oldest first with createdAt asc and accepts spacing and case variants', async () => {
    const { items } = await allPages({ [QUERY.runs.pageSize]: 2, [QUERY.runs.orderBy]: 'createdAt asc' })
    expect(items.map((r) => r.runId)).toEqual(created)
    const shouting = await call(sb, paths.runs() + query({ [QUERY.runs.orderBy]: 'createdAt   DESC' }))
    expect(shouting.status).toBe(200)
  })

  it('filters by status, with totalCount of the filtered list', async () => {
    const { items, totals } = await allPages({ [QUERY.runs.status]: 'failed', [QUERY.runs.pageSize]: 2 })
    expect(items.map((r) => r.runId)).toEqual([created[6], created[3], created[0]])
    expect(items.every((r) => r.status === 'failed')).toBe(true)
    expect(totals[0]).toBe(3)
    const none = runListSchema.parse((await call(sb, paths.runs() + query({ status: 'cancelled' }))).body)
    expect(none).toMatchObject({ items: [], totalCount: 0, nextPageToken: '' })
  })

  it('rejects page sizes outside 1..max, unknown orders and statuses with 400', async () => {
    const bad: [Record<string, string | number>, RegExp][] = [
      [{ pageSize: PAGE_LIMITS.runs.max + 1 }, /maximum of 200/],
      [{ pageSize: 0 }, /at least 1/],
      [{ pageSize: 'ten' }, /whole number/],
      [{ pageSize: -5 }, /whole number/],
      [{ orderBy: 'displayName desc' }, /not supported/],
      [{ orderBy: 'createdAt sideways' }, /not supported/],
      [{ status: 'done' }, /not a run status/],
    ]
    for (const [params, message] of bad) {
      const result = await call<{ error: string }>(sb, paths.runs() + query(params))
      expect(result.status, JSON.stringify(params)).toBe(400)
      expect(result.body.error).toMatch(message)
    }
    const max = await call(sb, paths.runs() + query({ pageSize: PAGE_LIMITS.runs.max }))
    expect(max.status).toBe(200)
  })

  it('rejects tampered, foreign and mismatched page tokens with 400', async () => {
    const first = runListSchema.parse((await call(sb, paths.runs() + query({ pageSize: 2 }))).body)
    const token = first.nextPageToken
    expect(token).not.toBe('')
    const [body, signature] = token.split('.') as [string, string]
    const forged = Buffer.from(
      Buffer.from(body, 'base64url').toString('utf8').replace(/"a":\[\d+\]/, '"a":[999]'),
    ).toString('base64url')
    const variants = [
      'garbage',
      `${forged}.${signature}`,
      `${body}.${signature.slice(0, -2)}xx`,
      `${token}.extra`,
    ]
    for (const bad of variants) {
      const result = await call<{ error: string }>(sb, paths.runs() + query({ pageSize: 2, pageToken: bad }))
      expect(result.status, bad).toBe(400)
      expect(result.body.error).toMatch(/pageToken/)
    }
    const otherUser = await call(sb, paths.runs() + query({ pageSize: 2, pageToken: token }), { token: 'tok-other' })
    expect(otherUser.status).toBe(400)
    const otherFilter = await call(sb, paths.runs() + query({ pageSize: 2, pageToken: token, status: 'failed' }))
    expect(otherFilter.status).toBe(400)
    const otherList = await call(sb, paths.creatorListings() + query({ pageToken: token }))
    expect(otherList.status).toBe(400)
  })

  it('shows each user only their own runs', async () => {
    const other = runListSchema.parse((await call(sb, paths.runs(), { token: 'tok-other' })).body)
    expect(other).toMatchObject({ items: [], totalCount: 0 })
  })
})

describe('sandbox: creator listing pages and search', () => {
  let sb: TestSandbox

  const seed: SeedFile = {
    users: [
      { userId: 1, name: 'Ada', token: 'tok-ada' },
      { userId: 2, name: 'Grace', token: 'tok-grace' },
    ],
    marketListings: Array.from({ length: 12 }, (_, i) => ({
      skill: 'echo' as const,
      ownerUserId: i < 11 ? 1 : 2,
      createdAtUnix: 1_700_000_000 + i * 60,
      listing: {
        id: `listing-${String(i).padStart(2, '0')}`,
        displayName: i % 2 === 0 ? `Translator ${i}` : `Summarizer ${i}`,
        description: i === 3 ? 'Handles ÜBERSETZUNG of legal text' : 'General purpose',
        listingVersionId: `v${i}`,
        publishedVersionId: `v${i}`,
        taskFixedFeeT: i,
        status: 'published',
        saleStatus: 'on_sale',
        executionAvailabilityStatus: 'available',
      },
      schema: { columns: [], fields: [{ key: 'text', label: 'Text', type: 'text' }] },
    })),
  }

  beforeAll(async () => {
    sb = await startTestSandbox({ seed, tokens: [] })
  })
  afterAll(() => sb.close())

  it('pages my listings newest first until nextPageToken is empty', async () => {
    const ids: string[] = []
    let token = ''
    let pages = 0
    do {
      const result = await call(
        sb,
        paths.creatorListings() + query({ pageSize: 4, ...(token ? { pageToken: token } : {}) }),
        { token: 'tok-ada' },
      )
      expect(result.status).toBe(200)
      const list = creatorListingListSchema.parse(result.body)
      ids.push(...list.items.map((l) => l.id))
      token = list.nextPageToken
      pages += 1
    } while (token && pages < 10)
    expect(pages).toBe(3)
    expect(ids).toEqual(Array.from({ length: 11 }, (_, i) => `listing-${String(10 - i).padStart(2, '0')}`))
  })

  it('gives each listing its owner and its schema snapshot', async () => {
    const grace = creatorListingListSchema.parse((await call(sb, paths.creatorListings(), { token: 'tok-grace' })).body)
    expect(grace.items.map((l) => [l.id, l.ownerUserId])).toEqual([['listing-11', 2]])
    expect(JSON.parse(grace.items[0]!.inputSchemaSnapshot)).toMatchObject({ fields: [{ key: 'text' }] })
  })

  it('searches title and description without regard to case', async () => {
    const byTitle = creatorListingListSchema.parse(
      (await call(sb, paths.creatorListings() + query({ search: 'SUMMARIZER' }), { token: 'tok-ada' })).body,
    )
    expect(byTitle.items.map((l) => l.id)).toEqual(['listing-09', 'listing-07', 'listing-05', 'listing-03', 'listing-01'])
    const byDescription = creatorListingListSchema.parse(
      (await call(sb, paths.creatorListings() + query({ search: 'übersetzung' }), { token: 'tok-ada' })).body,
    )
    expect(byDescription.items.map((l) => l.id)).toEqual(['listing-03'])
    const nothing = creatorListingListSchema.parse(
      (await call(sb, paths.creatorListings() + query({ search: 'zzz' }), { token: 'tok-ada' })).body,
    )
    expect(nothing).toEqual({ items: [], nextPageToken: '' })
  })

  it('keeps the search with the page token', async () => {
    const first = creatorListingListSchema.parse(
      (await call(sb, paths.creatorListings() + query({ search: 'translator', pageSize: 2 }), { token: 'tok-ada' })).body,
    )
    expect(first.items.map((l) => l.id)).toEqual(['listing-10', 'listing-08'])
    const next = await call(
      sb,
      paths.creatorListings() + query({ search: 'translator', pageSize: 2, pageToken: first.nextPageToken }),
      { token: 'tok-ada' },
    )
    expect(creatorListingListSchema.parse(next.body).items.map((l) => l.id)).toEqual(['listing-06', 'listing-04'])
    const changedSearch = await call(
      sb,
      paths.creatorListings() + query({ search: 'summarizer', pageSize: 2, pageToken: first.nextPageToken }),
      { token: 'tok-ada' },
    )
    expect(changedSearch.status).toBe(400)
  })

  it('accepts only createdAt desc and page sizes up to 500', async () => {
    const ok = await call(sb, paths.creatorListings() + query({ orderBy: 'createdAt desc', pageSize: 500 }), {
      token: 'tok-ada',
    })
    expect(ok.status).toBe(200)
    const bad: Record<string, string | number>[] = [{ orderBy: 'createdAt asc' }, { orderBy: 'displayName' }, { pageSize: 501 }]
    for (const params of bad) {
      const result = await call<{ error: string }>(sb, paths.creatorListings() + query(params), { token: 'tok-ada' })
      expect(result.status, JSON.stringify(params)).toBe(400)
      expect(result.body.error.length).toBeGreaterThan(10)
    }
  })
})
