// Usage figures from runs: the monthly sum over several months, the month's edge in time zones,
// runs still going counted by their estimate, the top targets and "Other", and the CSV.
import { amountT } from '../../src/shared/format/amounts'
import { describe, expect, it } from 'vitest'
import { monthSpending, usageFigures, type UsageRun } from '../../src/shared/usage/figures'
import { usageCsv, usageReport } from '../../src/shared/usage/report'
import { standingOf } from '../../src/core/flows/usage/limit'

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000)

function run(
  completed: string | null,
  actualCostT: number,
  target = 'echo',
  extra: Partial<UsageRun> = {},
): UsageRun {
  return {
    runId: `run-${completed}-${target}-${actualCostT}`,
    name: 'a run',
    status: completed ? 'succeeded' : 'running',
    targetKind: 'template',
    targetId: target,
    targetName: target.toUpperCase(),
    estimatedCostT: actualCostT + 1,
    actualCostT: completed ? actualCostT : 0,
    rows: 4,
    succeededRows: completed ? 3 : 0,
    createdAtUnix: completed ? at(completed) - 60 : at('2026-11-20T10:00:00Z'),
    completedAtUnix: completed ? at(completed) : 0,
    finished: completed !== null,
    ...extra,
  }
}

const NOW = Date.parse('2026-11-28T12:00:00Z')

describe('usage figures', () => {
  it('sums each month of several, and this month from finished and running runs', () => {
    const runs = [
      run('2026-09-03T10:00:00Z', 10),
      run('2026-10-01T10:00:00Z', 20),
      run('2026-10-31T10:00:00Z', 5),
      run('2026-11-02T10:00:00Z', 7),
      run('2026-11-27T10:00:00Z', 8, 'other'),
      run(null, 0, 'echo', { estimatedCostT: 30 }),
    ]
    const f = usageFigures(runs, { nowMs: NOW, timeZone: 'UTC' })
    const byMonth = Object.fromEntries(f.months.bars.map((b) => [b.period, b.totalT]))
    expect(byMonth['2026-09']).toBe(10)
    expect(byMonth['2026-10']).toBe(25)
    expect(byMonth['2026-11']).toBe(15)
    expect(f.months.bars).toHaveLength(12)
    expect(f.days.bars).toHaveLength(30)
    expect(f.lastMonthT).toBe(25)
    expect(f.thisMonth).toEqual({ month: '2026-11', finishedT: 15, runningT: 30, runningRuns: 1 })
    const echo = f.targets.find((t) => t.id === 'echo')!
    expect(echo).toMatchObject({
      runs: 4,
      actualCostT: 42,
      estimatedCostT: 46,
      rows: 16,
      succeededRows: 12,
    })
  })

  it('puts a run at the month’s edge in the month of this computer’s time zone', () => {
    // 23:30 UTC on Oct 31 is already November in Berlin, still October in New York.
    const edge = [run('2026-10-31T23:30:00Z', 9)]
    const now = Date.parse('2026-11-01T12:00:00Z')
    expect(monthSpending(edge, now, 'Europe/Berlin').finishedT).toBe(9)
    expect(monthSpending(edge, now, 'America/New_York').finishedT).toBe(0)
    expect(monthSpending(edge, now, 'UTC').finishedT).toBe(0)
    // The same moment a few hours later in UTC: November 1 begins at 00:00 UTC.
    expect(monthSpending([run('2026-11-01T00:00:00Z', 4)], now, 'UTC').finishedT).toBe(4)
    const berlin = usageFigures(edge, { nowMs: now, timeZone: 'Europe/Berlin' })
    expect(berlin.days.bars.at(-1)).toMatchObject({ period: '2026-11-01', totalT: 9 })
  })

  it('stacks the five targets that cost most and puts the rest in Other', () => {
    const runs = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((t, i) =>
      run('2026-11-27T10:00:00Z', 70 - i * 10, t),
    )
    const f = usageFigures(runs, { nowMs: NOW, timeZone: 'UTC' })
    expect(f.days.series.map((s) => s.name)).toEqual(['A', 'B', 'C', 'D', 'E', 'Other'])
    const day = f.days.bars.find((b) => b.period === '2026-11-27')!
    expect(day.values).toEqual([70, 60, 50, 40, 30, 20 + 10])
    expect(day.totalT).toBe(280)
  })

  it('reports per day or per day and target, and writes them as CSV', () => {
    const runs = [run('2026-11-27T10:00:00Z', 8), run('2026-11-27T11:00:00Z', 2, 'x,"y"')]
    const report = usageReport(runs, {
      nowMs: NOW,
      timeZone: 'UTC',
      unit: 'day',
      count: 3,
      byTarget: false,
    })
    expect(report).toMatchObject({ from: '2026-11-26', to: '2026-11-28', unit: 'day' })
    expect(report.items.map((i) => [i.period, i.actualCostT])).toEqual([
      ['2026-11-26', 0],
      ['2026-11-27', 10],
      ['2026-11-28', 0],
    ])
    const byTarget = usageReport(runs, {
      nowMs: NOW,
      timeZone: 'UTC',
      unit: 'day',
      count: 3,
      byTarget: true,
    })
    expect(byTarget.items.map((i) => [i.target, i.actualCostT])).toEqual([
      ['template:echo', 8],
      ['template:x,"y"', 2],
    ])
    const csv = usageCsv(byTarget.items).split('\r\n')
    expect(csv[0]).toBe(
      'period,target,target name,actual cost,estimated cost,runs,rows,succeeded rows',
    )
    expect(csv[2]).toBe('2026-11-27,"template:x,""y""","X,""Y""",2,3,1,4,3')
  })

  it('says when a send would pass the limit, and when the month reaches 80%', () => {
    const month = { month: '2026-11', finishedT: 60, runningT: 10 }
    expect(standingOf(month, amountT(100), amountT(5))).toMatchObject({
      spentT: 70,
      leftT: 30,
      over: false,
      nearly: false,
    })
    expect(standingOf(month, amountT(100), amountT(10))).toMatchObject({
      over: false,
      nearly: true,
    })
    expect(standingOf(month, amountT(100), amountT(31))).toMatchObject({ over: true })
    expect(standingOf({ ...month, finishedT: 90 }, amountT(100), null)).toMatchObject({
      leftT: 0,
      over: true,
    })
  })
})
