// The retry decision and the paginator every caller shares (pure functions).
import { expect, it } from 'vitest'
import { DEFAULT_RETRY_POLICY, paginate, retryDelay } from '../../src/core/service'

const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 }
const half = () => 0.5

it('backs off with jitter, honours Retry-After, and stops at the limit or on a final answer', () => {
  expect(retryDelay({ kind: 'network' }, 1, policy, half)).toBe(63) // 100 x (0.25 + 0.375)
  expect(retryDelay({ kind: 'timeout' }, 2, policy, half)).toBe(125)
  expect(retryDelay({ kind: 'network' }, 3, policy, half)).toBeNull()
  expect(retryDelay({ kind: 'status', status: 503, retryAfterMs: 2000 }, 1, policy, half)).toBe(
    2000,
  )
  expect(
    retryDelay({ kind: 'status', status: 429, retryAfterMs: 120_000 }, 1, policy, half),
  ).toBeNull()
  expect(retryDelay({ kind: 'status', status: 400 }, 1, policy, half)).toBeNull()
  expect(retryDelay({ kind: 'status', status: 409 }, 1, policy, half)).toBeNull()
  expect(retryDelay({ kind: 'other' }, 1, policy, half)).toBeNull()
  // Never less than a quarter of the ceiling, never more than the ceiling.
  expect(retryDelay({ kind: 'network' }, 1, policy, () => 0)).toBe(25)
  expect(retryDelay({ kind: 'network' }, 1, { ...policy, maxAttempts: 20 }, () => 1)).toBe(100)
  expect(retryDelay({ kind: 'network' }, 10, { ...policy, maxAttempts: 20 }, () => 1)).toBe(1000)
})

it('follows page tokens up to a limit, asks no more than the page maximum, and stops on a repeated token', async () => {
  const asked: { pageToken: string | undefined; pageSize: number }[] = []
  const pages = { '': ['a', 'b'], t1: ['c', 'd'], t2: ['e'] } as Record<string, string[]>
  const next = { '': 't1', t1: 't2', t2: '' } as Record<string, string>
  const fetchPage = async (request: { pageToken: string | undefined; pageSize: number }) => {
    asked.push(request)
    const key = request.pageToken ?? ''
    return { items: pages[key]!, nextPageToken: next[key]!, totalCount: 5 }
  }
  expect(await paginate(fetchPage, { maxPageSize: 2 })).toEqual({
    items: ['a', 'b', 'c', 'd', 'e'],
    totalCount: 5,
  })
  asked.length = 0
  expect((await paginate(fetchPage, { limit: 3, maxPageSize: 2 })).items).toEqual(['a', 'b', 'c'])
  expect(asked.map((a) => a.pageSize)).toEqual([2, 1])
  const looping = async () => ({ items: ['x'], nextPageToken: 'same' })
  expect((await paginate(looping, { maxPageSize: 10 })).items).toEqual(['x', 'x'])
})
