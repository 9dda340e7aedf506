// The monthly limit through the Bridge, with the real engine and the sandbox over HTTP: this
// month's spending is read from the service's runs (a run ended earlier this month, from the
// seed's pastRuns, and the runs sent here); the plan says what is left from 80% on, and every
// paid path (listing, template, pilot, rest of a pilot, retry, redo) is refused past the limit.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import {
  BUYER_TOKEN,
  LISTING_TARGET,
  buyerRunCount,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'
import { browserBridgeService, ipc, testEngine } from '../helpers/engine'
import { startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'
import { pastRun, today, usageSandbox } from '../helpers/usage-seed'

let sandbox: TestSandbox
let engine: Engine
let service: BridgeService
let home: string
const env = 'Market'

beforeAll(async () => {
  const now = Math.floor(Date.now() / 1000)
  // 5 rows of the listing (4 credits a row) ended an hour ago: 20 credits this month.
  const earlier = {
    ...pastRun(now, 0, 5, true),
    completedAtUnix: today(now - 3600),
    createdAtUnix: today(now - 4000),
  }
  sandbox = await startTestSandbox(usageSandbox([earlier, pastRun(now, 45, 9)]))
  home = mkdtempSync(join(tmpdir(), 'sr-limit-'))
  engine = testEngine(home, { api: { maxAttempts: 2, backoffMs: 5, maxBackoffMs: 10 } })
  await engine.addEnvironment({ name: env, baseUrl: sandbox.url, token: BUYER_TOKEN })
  service = browserBridgeService(engine)
})
afterAll(async () => {
  service.dispose()
  await engine.close()
  await sandbox.close()
})

const setLimit = (limitT: number | null) =>
  service.handlers.setMonthlyLimit({ environment: env, limitT }, ipc)
const confirm = (planId: string) =>
  service.handlers.confirmSubmission({ environment: env, planId, confirmed: true }, ipc)

async function planBook(name: string, rows: [string, string, number][], pilotRows?: number) {
  const path = join(home, name)
  await writeBuyerWorkbook(path, rows)
  return service.handlers.planSubmission(
    {
      environment: env,
      file: { kind: 'path', path, name },
      target: LISTING_TARGET,
      ...(pilotRows ? { pilotRows } : {}),
    },
    ipc,
  )
}

/** Confirming the plan is refused by the limit, and nothing is sent. */
async function refusedByLimit(planId: string, words: RegExp) {
  const before = await buyerRunCount(sandbox)
  await expect(confirm(planId)).rejects.toMatchObject({
    code: 'over-limit',
    message: expect.stringMatching(words),
  })
  expect(await buyerRunCount(sandbox)).toBe(before)
}

describe('the monthly limit', () => {
  it('is off by default; set, it shows on the environment and on the Usage screen', async () => {
    const off = await service.handlers.usage({ environment: env, fresh: true }, ipc)
    expect(off.monthlyLimit).toBeNull()
    expect(off.thisMonthT).toBe(20)
    const list = await setLimit(40)
    expect(list.items.find((e) => e.name === env)?.monthlyLimitT).toBe(40)
    const on = await service.handlers.usage({ environment: env }, ipc)
    expect(on.monthlyLimit).toMatchObject({ limitT: 40, spentT: 20, leftT: 20, nearly: false })
    expect(on.monthlyLimit?.words).toMatch(/kept by this computer, not by the service/)
  })

  it('says what is left at 80%, and sends what stays under the limit', async () => {
    const plan = await planBook('mixed.xlsx', [
      ['Vase', 'formal', 10],
      ['Broken [[fail]]', 'friendly', 11],
      ['Rug', 'formal', 12],
    ])
    // 20 spent + 12 estimated = 32: 80% of 40.
    expect(plan.monthlyLimit).toMatchObject({
      limitT: 40,
      spentT: 20,
      estimateT: 12,
      nearly: true,
      over: false,
    })
    expect(plan.summary).toMatch(/20 credits left.*After this send, about 8 credits would be left/)
    const sent = await confirm(plan.planId)
    const ended = await waitForRun(sandbox, sent.runId, BUYER_TOKEN)
    expect(ended.run.actualCostT).toBe(8)

    // 28 spent now; a limit of 30 leaves 2: every paid path of 4 credits or more is refused.
    await setLimit(30)
    const retry = await service.handlers.planRetryFailed(
      { environment: env, runId: sent.runId },
      ipc,
    )
    expect(retry.monthlyLimit).toMatchObject({ spentT: 28, leftT: 2, over: true })
    await refusedByLimit(
      retry.planId,
      /estimate of 4 credits would pass this environment’s monthly limit of 30 credits; 2 credits of it is left/,
    )
    const redo = await service.handlers.planRedo(
      { environment: env, runId: sent.runId, rows: [2] },
      ipc,
    )
    await refusedByLimit(redo.planId, /monthly limit of 30 credits/)
    const pilot = await planBook(
      'pilot.xlsx',
      [
        ['Cup', 'formal', 5],
        ['Jug', 'formal', 6],
      ],
      1,
    )
    await refusedByLimit(pilot.planId, /monthly limit of 30 credits/)
  })

  it('refuses a template whose cost is unknown unless it is a pilot, and the rest of a pilot past it', async () => {
    await setLimit(100)
    const path = join(home, 'echo.csv')
    const { writeFile } = await import('node:fs/promises')
    await writeFile(path, 'Message\nhello\nthere\n')
    const template = await service.handlers.planSubmission(
      {
        environment: env,
        file: { kind: 'path', path, name: 'echo.csv' },
        target: { kind: 'template', templateId: 'tpl-echo' },
      },
      ipc,
    )
    expect(template.estimateT).toBeNull()
    await refusedByLimit(
      template.planId,
      /not known before the run, so this environment’s monthly limit of 100 credits cannot be kept/,
    )

    const pilot = await planBook(
      'rest.xlsx',
      [
        ['Cup', 'formal', 5],
        ['Jug', 'formal', 6],
        ['Pot', 'formal', 7],
      ],
      1,
    )
    const pilotRun = await confirm(pilot.planId)
    await waitForRun(sandbox, pilotRun.runId, BUYER_TOKEN)
    // 28 + 4 = 32 spent; the rest (2 rows, 8 credits) would pass 35.
    await setLimit(35)
    const rest = await service.handlers.planRestOfPilot(
      { environment: env, runId: pilotRun.runId },
      ipc,
    )
    // A check that failed says why here, before the count it empties.
    expect(rest.validation).toMatchObject({ valid: true, fileErrors: [], rowErrors: [] })
    expect(rest.rowCount).toBe(2)
    await refusedByLimit(rest.planId, /estimate of 8 credits would pass/)

    // Off again: the same rest is sent.
    await setLimit(null)
    const again = await service.handlers.planRestOfPilot(
      { environment: env, runId: pilotRun.runId },
      ipc,
    )
    expect(again.monthlyLimit).toBeNull()
    expect((await confirm(again.planId)).runId).toMatch(/\S/)
  })

  it('lists the runs of a day from the runs kept', async () => {
    const usage = await service.handlers.usage({ environment: env, fresh: true }, ipc)
    const today = usage.days.bars.at(-1)!
    const runs = await service.handlers.usagePeriodRuns(
      { environment: env, period: today.period },
      ipc,
    )
    expect(runs.runs.reduce((sum, r) => sum + r.actualCostT, 0)).toBe(today.totalT)
    expect(usage.months.bars.reduce((sum, b) => sum + b.totalT, 0)).toBeGreaterThan(today.totalT)
  })
})
