import { describe, expect, it } from 'vitest'
import {
  createRunSummariesStore,
  rowMarksOf,
  summaryOf,
} from '../../src/renderer/stores/run-summaries-store'
import {
  activeRunCount,
  canLoadMore,
  newestFirst,
  isStalled,
  mergeRuns,
  NEEDS_ATTENTION,
  runsCaption,
  visibleRuns,
} from '../../src/renderer/stores/runs-selectors'
import { runStartedAt, runSummary } from '../helpers/run-fixtures'

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

describe('pages of older runs', () => {
  const page = (from: number) =>
    Array.from({ length: 50 }, (_, i) =>
      runSummary({ runId: `r${from + i}`, createdAtUnix: 100_000 - from - i }),
    )

  it('go at the end as they came, and a page out of order is placed among the runs', () => {
    const first = mergeRuns([], page(0))
    const two = mergeRuns(first, page(50))
    expect(two.map((r) => r.runId)).toEqual([...first, ...page(50)].map((r) => r.runId))
    const late = runSummary({ runId: 'late', createdAtUnix: 100_000 - 25 })
    expect(mergeRuns(two, [late])).toEqual([...two, late].sort(newestFirst))
    expect(mergeRuns(two, [late]).indexOf(late)).toBeLessThan(30)
  })

  it('are all found in the summaries cache however many came, the newest of each run kept', () => {
    const summaries = createRunSummariesStore()
    for (let from = 0; from < 2000; from += 50) summaries.getState().put('Local', page(from))
    const again = { ...page(0)[3]!, status: 'succeeded', updatedAtUnix: 2_000_000_000 }
    const before = summaries.getState().byEnvironment.Local
    summaries.getState().put('Local', [again])
    const news = summaries.getState().byEnvironment.Local!.newsOver(before)
    expect(news && [...news.values()]).toEqual([again])
    summaries.getState().put('Local', [page(0)[3]!])
    const state = summaries.getState()
    expect(summaryOf(state, 'Local', 'r3')).toBe(again)
    expect(summaryOf(state, 'Local', 'r1999')?.runId).toBe('r1999')
    expect(summaryOf(state, 'Local', 'r2000')).toBeUndefined()
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

describe('the window’s marks of a run’s rows', () => {
  const T0 = 1_800_000_000
  const seen = (completedTasks: number, second: number, status = 'running') =>
    runStartedAt(T0, {
      runId: 'r',
      totalTasks: 20,
      completedTasks,
      updatedAtUnix: T0 + second,
      status,
    })

  it('keeps each rise the summaries cache sees, judges a stall by them, and forgets an ended run', () => {
    const summaries = createRunSummariesStore()
    for (const [done, second] of [
      [4, 120],
      [8, 240],
      [9, 2040],
      [12, 2130],
    ] as const)
      summaries.getState().put('Local', [seen(done, second)])
    const marks = rowMarksOf(summaries.getState(), 'Local', 'r')
    expect(marks.map((m) => m.done)).toEqual([0, 4, 8, 9, 12])
    // An older summary arriving late changes nothing, and the same marks stay the same object.
    summaries.getState().put('Local', [seen(8, 240)])
    expect(rowMarksOf(summaries.getState(), 'Local', 'r')).toBe(marks)
    // Rows of 30 s but one: stalled 2 min after the last change, as the mean would not say.
    const run = seen(12, 2130)
    const twoMinutesOn = (T0 + 2130 + 121) * 1000
    expect(isStalled(run, [run], twoMinutesOn, marks)).toBe(true)
    expect(isStalled(run, [run], twoMinutesOn)).toBe(false)
    const attention = visibleRuns(
      { items: [run], status: NEEDS_ATTENTION },
      { nowMs: twoMinutesOn, rowMarks: () => marks },
    )
    expect(attention.map((r) => r.runId)).toEqual(['r'])
    summaries.getState().put('Local', [seen(20, 2400, 'succeeded')])
    expect(rowMarksOf(summaries.getState(), 'Local', 'r')).toEqual([])
    expect(summaries.getState().rowMarks.Local).toEqual({})
  })
})
