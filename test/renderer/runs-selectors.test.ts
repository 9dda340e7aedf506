import { describe, expect, it } from 'vitest'
import {
  activeRunCount,
  canLoadMore,
  mergeRuns,
  runsCaption,
  visibleRuns,
} from '../../src/renderer/stores/runs-selectors'
import { runSummary } from './fixtures'

describe('mergeRuns', () => {
  it('updates known runs in place, adds new ones, newest first', () => {
    const a = runSummary({ runId: 'a', createdAtUnix: 10 })
    const b = runSummary({ runId: 'b', createdAtUnix: 20 })
    const a2 = { ...a, status: 'succeeded', completedTasks: 4, updatedAtUnix: a.updatedAtUnix + 5 }
    const c = runSummary({ runId: 'c', createdAtUnix: 30 })
    expect(mergeRuns([b, a], [a2, c]).map((r) => [r.runId, r.status])).toEqual([
      ['c', 'running'],
      ['b', 'running'],
      ['a', 'succeeded'],
    ])
  })

  it('never lets an older summary replace a newer one', () => {
    const fresh = runSummary({ status: 'succeeded', updatedAtUnix: 200 })
    const stale = runSummary({ status: 'running', updatedAtUnix: 100 })
    expect(mergeRuns([fresh], [stale])[0]!.status).toBe('succeeded')
  })
})

describe('visible runs and captions', () => {
  const items = [
    runSummary({ runId: 'a', status: 'running' }),
    runSummary({ runId: 'b', status: 'succeeded' }),
    runSummary({ runId: 'c', status: 'paused_by_operator' }),
  ]

  it('filters by status, keeping every run when no status is chosen', () => {
    expect(visibleRuns({ items, status: '' })).toHaveLength(3)
    expect(visibleRuns({ items, status: 'succeeded' }).map((r) => r.runId)).toEqual(['b'])
  })

  it('counts unknown statuses as still in progress', () => {
    expect(activeRunCount(items)).toBe(2)
  })

  it('describes the list', () => {
    expect(runsCaption({ items, status: '', totalCount: 3 })).toBe('3 runs · 2 in progress')
    expect(runsCaption({ items: [items[1]!], status: '', totalCount: 1 })).toBe('1 run')
    expect(runsCaption({ items, status: 'succeeded', totalCount: 1 })).toBe(
      '1 run shown · 2 in progress',
    )
  })

  it('offers older runs only when the service said there are more', () => {
    expect(canLoadMore({ nextPageToken: '', loadingMore: false })).toBe(false)
    expect(canLoadMore({ nextPageToken: 'p2', loadingMore: false })).toBe(true)
    expect(canLoadMore({ nextPageToken: 'p2', loadingMore: true })).toBe(false)
  })
})
