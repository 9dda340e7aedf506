// `usage` and `env limit` on a sandbox whose seed has runs over several months (pastRuns).
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUYER_TOKEN, LISTING_ARGS, writeBuyerWorkbook } from '../helpers/buyer-seed'
import { runCliCaptured, useCliOnSandbox } from '../helpers/cli'
import { runCount } from '../helpers/sandbox'
import { pastRun, today, usageSandbox } from '../helpers/usage-seed'

const now = Math.floor(Date.now() / 1000)
// Four months back, one run a month (Echo, 3 credits a row), and two runs today.
const runs = [
  pastRun(now, 0, 5, true),
  { ...pastRun(now, 0, 2), createdAtUnix: today(now - 7200), completedAtUnix: today(now - 3600) },
  pastRun(now, 35, 10),
  pastRun(now, 65, 4),
  pastRun(now, 95, 6),
]
const { sandbox, home, cli } = useCliOnSandbox('sr-cli-usage-', usageSandbox(runs), BUYER_TOKEN)
const asMarket = (args: string[]) =>
  runCliCaptured([...args, '--env', 'Market'], {
    SKILL_RUNNER_HOME: home,
    SKILL_RUNNER_TOKEN: BUYER_TOKEN,
  })

beforeAll(async () => {
  expect((await cli(['env', 'add', 'Market'])).code).toBe(0)
})

describe('usage', () => {
  it('--json sums months and targets from the service’s runs', async () => {
    const out = await cli(['usage', '--json', '--months', '6'])
    expect(out.code).toBe(0)
    const report = JSON.parse(out.stdout)
    expect(report).toMatchObject({ unit: 'month' })
    expect(report.items).toHaveLength(6)
    const total = report.items.reduce(
      (s: number, i: { actualCostT: number }) => s + i.actualCostT,
      0,
    )
    // 20 (listing) + 6 + 30 + 12 + 18 (Echo at 3 a row).
    expect(total).toBe(86)
    expect(report.totals).toMatchObject({ actualCostT: 86, runs: 5, rows: 27, succeededRows: 27 })
    expect(report.items.at(-1).period).toBe(report.to)

    const byTarget = JSON.parse(
      (await cli(['usage', '--json', '--days', '1', '--by', 'template'])).stdout,
    )
    expect(
      byTarget.items.map((i: { target: string; actualCostT: number }) => [i.target, i.actualCostT]),
    ).toEqual([
      ['listing:ad-copy', 20],
      ['template:tpl-echo', 6],
    ])
  })

  it('--csv writes the same numbers as a CSV file', async () => {
    const path = join(home, 'usage.csv')
    const out = await cli(['usage', '--json', '--months', '6', '--by', 'template', '--csv', path])
    expect(out.code).toBe(0)
    const lines = readFileSync(path, 'utf8').trim().split('\r\n')
    expect(lines[0]).toBe(
      'period,target,target name,actual cost,estimated cost,runs,rows,succeeded rows',
    )
    const json = JSON.parse(out.stdout)
    expect(lines.slice(1).map((l) => Number(l.split(',')[3]))).toEqual(
      json.items.map((i: { actualCostT: number }) => i.actualCostT),
    )
  })

  it('refuses bad options as usage errors', async () => {
    expect((await cli(['usage', '--months', '3', '--days', '3'])).code).toBe(2)
    expect((await cli(['usage', '--by', 'week'])).code).toBe(2)
  })
})

describe('env limit', () => {
  it('sets a limit that every paid command keeps, and turns it off', async () => {
    const set = await asMarket(['env', 'limit', 'Market', '30', '--json'])
    expect(set.code).toBe(0)
    const market = JSON.parse(set.stdout).items.find((e: { name: string }) => e.name === 'Market')
    expect(market.monthlyLimitT).toBe(30)

    // 26 spent this month; 3 rows of the listing (12 credits) would pass 30.
    const book = join(home, 'ads.xlsx')
    await writeBuyerWorkbook(book, [
      ['Kettle', 'friendly', 20],
      ['Lamp', 'formal', 5],
      ['Desk', 'formal', 35],
    ])
    const before = await runCount(sandbox)
    const refused = await asMarket(['execute', book, ...LISTING_ARGS, '--yes'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /estimate of 12 credits would pass this environment’s monthly limit of 30 credits; 4 credits of it is left/,
    )
    expect(refused.stderr).toMatch(/skill-runner env limit NAME/)
    expect(await runCount(sandbox)).toBe(before)

    // A template of unknown cost is refused too, unless sent as a pilot.
    const csv = join(home, 'echo.csv')
    await writeFile(csv, 'Message\nhello\n')
    const template = await asMarket(['run', csv, '--template', 'tpl-echo', '--yes'])
    expect(template.code).toBe(1)
    expect(template.stderr).toMatch(/not known before the run/)

    const off = await asMarket(['env', 'limit', 'Market', 'off', '--json'])
    expect(
      JSON.parse(off.stdout).items.find((e: { name: string }) => e.name === 'Market').monthlyLimitT,
    ).toBeNull()
    expect((await asMarket(['execute', book, ...LISTING_ARGS, '--yes'])).code).toBe(0)
    expect(await runCount(sandbox)).toBe(before + 1)
  })
})
