// Time left before two rows are done, from the paces of earlier runs this computer's history
// holds (passed in: the function stays pure). The clock is fake: every time is given.
import { describe, expect, it } from 'vitest'
import type { RunSummary } from '../../src/shared/contract'
import { runStartedAt } from '../helpers/run-fixtures'
import {
  earlierPace,
  earlierPaces,
  paceSample,
  runPace,
  type PaceSample,
} from '../../src/shared/format'

const T0 = 1_800_000_000 // unix seconds: the fake clock counts from here
const at = (seconds: number) => (T0 + seconds) * 1000

const run = (over: Partial<RunSummary> = {}) =>
  runStartedAt(T0, { runId: 'run-now', totalTasks: 30, ...over })

/** A finished run of `rows` rows that took `seconds`, long before now. */
const finished = (runId: string, rows: number, seconds: number, over: Partial<RunSummary> = {}) =>
  run({
    runId,
    status: 'succeeded',
    totalTasks: rows,
    completedTasks: rows,
    createdAtUnix: T0 - 10_000,
    startedAtUnix: T0 - 10_000,
    completedAtUnix: T0 - 10_000 + seconds,
    updatedAtUnix: T0 - 10_000 + seconds,
    ...over,
  })

const sample = (r: RunSummary) => paceSample(r)!

describe('time left from the history’s earlier runs', () => {
  it('reads a finished run’s pace, and none of a run still going', () => {
    expect(paceSample(finished('a', 10, 300))).toEqual({
      runId: 'a',
      templateKey: 'row-echo',
      listingId: '',
      rowsPerMinute: 2,
      rowMs: 30_000,
    })
    expect(paceSample(run())).toBeNull()
  })

  it('tells the time left of a run with no row done from the history alone', () => {
    // Nothing fetched; the history has two runs of the template: 2 and 4 rows a minute.
    const kept: PaceSample[] = [sample(finished('a', 10, 300)), sample(finished('b', 20, 300))]
    const pace = earlierPace(run(), [], kept)
    expect(pace).toEqual({ rowsPerMinute: 3, rowMs: 22_500 })
    expect(runPace(run(), at(10), pace).leftText).toBe('about 10 min left')
    // One row done: still the history's pace (30 - 1 rows at 3 a minute).
    const one = run({ completedTasks: 1, updatedAtUnix: T0 + 20 })
    expect(runPace(one, at(20), pace).leftText).toBe('about 10 min left')
    // Two rows done: the run's own pace takes over (2 rows in 60 s: 28 rows left at 2 a minute).
    const two = run({ completedTasks: 2, updatedAtUnix: T0 + 60 })
    expect(runPace(two, at(60), pace).leftText).toBe('about 14 min left')
  })

  it('counts a run fetched and in the history once, the fetched copy first', () => {
    const old = sample(finished('a', 10, 600)) // 1 a minute, as the history last saw it
    const fetched = finished('a', 10, 300) // 2 a minute, as fetched now
    expect(earlierPace(run(), [fetched], [old])).toEqual({ rowsPerMinute: 2, rowMs: 30_000 })
  })

  it('takes only runs of the same template or listing, never the run itself', () => {
    const kept = [
      sample(finished('other', 10, 60, { templateKey: 'other-template' })),
      sample(finished('listed', 10, 60, { templateKey: '', market: listing('lst_1') })),
      sample(finished('run-now', 10, 60)),
    ]
    expect(earlierPace(run(), [], kept)).toBeNull()
    const ofListing = run({ market: listing('lst_1') })
    expect(earlierPace(ofListing, [], kept)).toEqual({ rowsPerMinute: 10, rowMs: 6000 })
  })

  it('gives a whole list the same paces as one run at a time', () => {
    // Finished and running runs of two templates and a listing (a listed run has a template
    // too), a finished run among its own kind, and one kept copy of a fetched run.
    const runs = [
      finished('f1', 10, 300),
      finished('f2', 20, 300),
      finished('f3', 10, 60, { templateKey: 'other' }),
      finished('f4', 30, 300, { market: listing('lst_1') }),
      finished('f5', 10, 600, { templateKey: '', market: listing('lst_1') }),
      run({ runId: 'r1' }),
      run({ runId: 'r2', templateKey: 'other' }),
      run({ runId: 'r3', market: listing('lst_1') }),
      run({ runId: 'r4', templateKey: '' }),
    ]
    const kept = [sample(finished('f1', 10, 600)), sample(finished('k1', 40, 300))]
    const paceOf = earlierPaces(runs, kept)
    for (const one of runs) expect(paceOf(one)).toEqual(earlierPaceOneByOne(one, runs, kept))
    expect(paceOf(runs[0]!)).toEqual({ rowsPerMinute: 6, rowMs: 10_000 })
    expect(paceOf(runs[8]!)).toBeNull()
  })
})

/** The rule of earlierPace, read plainly: the median of the other finished runs of its kind. */
function earlierPaceOneByOne(one: RunSummary, runs: RunSummary[], kept: PaceSample[]) {
  const byRun = new Map(kept.map((p) => [p.runId, p]))
  for (const other of runs) {
    const p = paceSample(other)
    if (p) byRun.set(p.runId, p)
  }
  const listingId = one.market?.listingId ?? ''
  const paces = [...byRun.values()].filter(
    (p) =>
      p.runId !== one.runId &&
      (listingId
        ? p.listingId === listingId
        : one.templateKey !== '' && p.templateKey === one.templateKey),
  )
  if (paces.length === 0) return null
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const mid = Math.floor(s.length / 2)
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
  }
  return {
    rowsPerMinute: median(paces.map((p) => p.rowsPerMinute)),
    rowMs: median(paces.map((p) => p.rowMs)),
  }
}

function listing(listingId: string): RunSummary['market'] {
  return { listingId } as RunSummary['market']
}
