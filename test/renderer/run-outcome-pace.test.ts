import { describe, expect, it } from 'vitest'
import type { RunSummary } from '../../src/shared/contract'
import { runStartedAt } from '../helpers/run-fixtures'
import {
  earlierPace,
  markRows,
  medianRowMs,
  minutesLeftText,
  needsAttention,
  runEndedMessage,
  runOutcome,
  runPace,
} from '../../src/shared/format'

const T0 = 1_800_000_000 // a fixed start (unix seconds): the fake clock counts from here

const run = (over: Partial<RunSummary> = {}) =>
  runStartedAt(T0, { displayName: 'Orders', totalTasks: 10, ...over })
const at = (seconds: number) => (T0 + seconds) * 1000

describe('how a run ended', () => {
  it('says a "succeeded" run with a failed row finished with it, in a warning tone', () => {
    const outcome = runOutcome(
      run({ status: 'succeeded', totalTasks: 3, completedTasks: 2, failedTasks: 1 }),
    )
    expect(outcome).toEqual({
      label: 'Finished with 1 failed (2 of 3 succeeded)',
      tone: 'warn',
      partial: true,
    })
  })

  it('counts cancelled rows too, and leaves whole outcomes as their status', () => {
    expect(
      runOutcome(
        run({
          status: 'succeeded',
          totalTasks: 4,
          completedTasks: 1,
          failedTasks: 2,
          cancelledTasks: 1,
        }),
      ).label,
    ).toBe('Finished with 2 failed, 1 cancelled (1 of 4 succeeded)')
    expect(runOutcome(run({ status: 'succeeded', completedTasks: 10 }))).toMatchObject({
      label: 'Succeeded',
      tone: 'good',
      partial: false,
    })
    expect(runOutcome(run({ status: 'failed', failedTasks: 10 })).label).toBe('Failed')
    expect(runOutcome(run({ status: 'paused' })).label).toBe('paused')
  })

  it('words the notification the same way', () => {
    const message = runEndedMessage(
      run({
        status: 'succeeded',
        totalTasks: 3,
        completedTasks: 2,
        failedTasks: 1,
        firstErrorMessage: 'Field "text" contains [[fail]]',
      }),
    )
    expect(message.title).toBe('Finished with 1 failed (2 of 3 succeeded): Orders')
    expect(message.body).toContain('First error: Field "text" contains [[fail]]')
  })

  it('flags runs that need attention: failed rows, stalled, outputs not saved', () => {
    expect(needsAttention(run({ status: 'succeeded', completedTasks: 9, failedTasks: 1 }))).toBe(
      true,
    )
    expect(needsAttention(run({ status: 'failed', failedTasks: 10 }))).toBe(true)
    expect(needsAttention(run({ status: 'succeeded', completedTasks: 10 }))).toBe(false)
    expect(needsAttention(run({ status: 'cancelled', cancelledTasks: 10 }))).toBe(false)
    expect(needsAttention(run(), { stalled: true })).toBe(true)
    expect(needsAttention(run(), {})).toBe(false)
    expect(
      needsAttention(run({ status: 'succeeded', completedTasks: 10 }), { unsavedOutputs: true }),
    ).toBe(true)
  })
})

describe('time left and stalls, on a fake clock', () => {
  it('tells the time left from rows finished per minute in this run', () => {
    // 4 of 10 rows in 2 minutes: 2 rows a minute, 6 left: about 3 min.
    const pace = runPace(run({ completedTasks: 4, updatedAtUnix: T0 + 120 }), at(120))
    expect(pace.state).toBe('moving')
    expect(pace.leftText).toBe('about 3 min left')
  })

  it('before two rows are done, uses earlier runs of the same template', () => {
    const earlier = [
      run({
        runId: 'a',
        status: 'succeeded',
        completedTasks: 10,
        completedAtUnix: T0 - 3000,
        startedAtUnix: T0 - 3600,
        createdAtUnix: T0 - 3600,
      }),
      run({
        runId: 'b',
        status: 'succeeded',
        templateKey: 'other',
        completedTasks: 10,
        completedAtUnix: T0 - 3590,
        startedAtUnix: T0 - 3600,
      }),
    ]
    const pace = earlierPace(run(), earlier)
    // Run "a": 10 rows in 600 s, one a minute; run "b" ran another template and is ignored.
    expect(pace).toEqual({ rowsPerMinute: 1, rowMs: 60_000 })
    expect(runPace(run({ completedTasks: 1, updatedAtUnix: T0 + 30 }), at(30), pace).leftText).toBe(
      'about 9 min left',
    )
    expect(runPace(run(), at(30), null).leftText).toBe('')
  })

  it('is stalled after max(3 x the row time, 2 min) without a change, and moves again', () => {
    // 5 rows in 50 s: 10 s a row; 3 x 10 s is under the 2 min floor.
    const moving = run({ completedTasks: 5, updatedAtUnix: T0 + 50 })
    expect(runPace(moving, at(50 + 119)).state).toBe('moving')
    const stalled = runPace(moving, at(50 + 121))
    expect(stalled.state).toBe('stalled')
    expect(stalled.leftText).toBe('')
    // Slow rows (2 min each) are given 6 minutes before they count as stalled.
    const slow = run({ completedTasks: 2, updatedAtUnix: T0 + 240 })
    expect(runPace(slow, at(240 + 300)).state).toBe('moving')
    expect(runPace(slow, at(240 + 361)).state).toBe('stalled')
    // A row changes: the run moves again.
    const after = run({ completedTasks: 6, updatedAtUnix: T0 + 50 + 200 })
    expect(runPace(after, at(50 + 201)).state).toBe('moving')
  })

  it('judges a stall by the median of the run’s own row times, as its watcher saw them', () => {
    // Seen at each look: 4 rows by 120 s, 8 by 240 s, 9 by 2040 s (one row of 30 min), 12 by
    // 2130 s.
    let marks = markRows([], run({ updatedAtUnix: T0 }))
    const looks = [
      [4, 120],
      [4, 120],
      [8, 240],
      [9, 2040],
      [12, 2130],
    ] as const
    for (const [done, second] of looks)
      marks = markRows(marks, run({ completedTasks: done, updatedAtUnix: T0 + second }))
    // A look with no rise leaves the marks as they were (the same array).
    expect(marks).toBe(markRows(marks, run({ completedTasks: 12, updatedAtUnix: T0 + 2130 })))
    // Rows of 30 s (11 of them) and one of 1800 s: the median is 30 s, the mean 177.5 s.
    expect(medianRowMs(marks)).toBe(30_000)
    const now = run({ completedTasks: 12, totalTasks: 20, updatedAtUnix: T0 + 2130 })
    expect(runPace(now, at(2130 + 121), null, marks).state).toBe('stalled')
    // By the mean, the one slow row would have hidden a stall for 3 x 177.5 s.
    expect(runPace(now, at(2130 + 121)).state).toBe('moving')
    expect(runPace(now, at(2130 + 533)).state).toBe('stalled')
  })

  it('keeps its first look of a run under way as rows of equal time, and few marks', () => {
    // Watched from the middle: 6 rows done 60 s after the start, then one each 10 s.
    let marks = markRows([], run({ completedTasks: 6, updatedAtUnix: T0 + 60 }))
    expect(medianRowMs(marks)).toBe(10_000)
    for (let row = 7; row <= 500; row += 1)
      marks = markRows(marks, run({ completedTasks: row, updatedAtUnix: T0 + 60 + (row - 6) * 10 }))
    expect(marks.length).toBeLessThanOrEqual(120)
    expect(medianRowMs(marks)).toBe(10_000)
    // Rows done before the first look count once, at their mean: a slow start (6 rows in
    // 600 s, a queue) gives way to the rows seen after it (10 s each).
    let late = markRows([], run({ completedTasks: 6, updatedAtUnix: T0 + 600 }))
    expect(medianRowMs(late)).toBe(100_000)
    for (let row = 7; row <= 9; row += 1)
      late = markRows(late, run({ completedTasks: row, updatedAtUnix: T0 + 600 + (row - 6) * 10 }))
    expect(medianRowMs(late)).toBe(10_000)
    // Not started: nothing to mark yet.
    expect(markRows([], run({ startedAtUnix: 0 }))).toEqual([])
  })

  it('says nothing of time for an ended run', () => {
    expect(runPace(run({ status: 'succeeded', completedTasks: 10 }), at(999)).state).toBe('ended')
    expect(minutesLeftText(0.5)).toBe('less than a minute left')
    expect(minutesLeftText(65)).toBe('about 1 h 5 min left')
  })
})
