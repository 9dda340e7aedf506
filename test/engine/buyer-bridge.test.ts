// The paid flow through the Bridge handlers with the real engine and the real sandbox over HTTP:
// a buyer who does not own a listing sees its schema and fee, plans a workbook whose headers are
// the listing's labels, is shown rows x fee, and confirms; nothing is sent without a confirm,
// above the cap, or a second time without asking.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import { BridgeError, type CallContext, type SubmissionUpdate } from '../../src/shared/bridge'
import { paths } from '../../src/shared/contract'
import {
  BUYER_SANDBOX,
  BUYER_TOKEN,
  LISTING_FEE,
  LISTING_ID,
  LISTING_TARGET,
  LISTING_VERSION,
  buyerRunCount,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'
import { browserBridgeService, http, ipc, pushedEvents, testEngine } from '../helpers/engine'
import { startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox
let engine: Engine
let service: BridgeService
let home: string
let updates: SubmissionUpdate[]

beforeAll(async () => {
  sandbox = await startTestSandbox(BUYER_SANDBOX)
  home = mkdtempSync(join(tmpdir(), 'sr-buyer-bridge-'))
  engine = testEngine(home, { api: { maxAttempts: 2, backoffMs: 5, maxBackoffMs: 10 } })
  await engine.addEnvironment({ name: 'Market', baseUrl: sandbox.url, token: BUYER_TOKEN })
  service = browserBridgeService(engine)
  updates = pushedEvents(service, 'submissionUpdated')
})
afterAll(async () => {
  service.dispose()
  await engine.close()
  await sandbox.close()
})

const runCount = () => buyerRunCount(sandbox)

/** Plans a workbook on disk for the listing, asked as the desktop window asks unless told. */
const planFromPath = (path: string, name: string, via: CallContext = ipc) =>
  service.handlers.planSubmission(
    { environment: 'Market', file: { kind: 'path', path, name }, target: LISTING_TARGET },
    via,
  )

describe('a buyer through the Bridge', () => {
  it('sees a listing it does not own: schema, fee and terms from the buyer view', async () => {
    const view = await service.handlers.getListing(
      { environment: 'Market', listingId: LISTING_ID },
      ipc,
    )
    expect(view).toMatchObject({
      listingId: LISTING_ID,
      displayName: 'Ad copy',
      listingVersionId: LISTING_VERSION,
      taskFixedFeeT: LISTING_FEE,
      pricingRuleVersion: 'flat-task-fee-1',
      executable: true,
      source: 'market',
    })
    expect(view.fields.map((f) => f.key)).toEqual(['product', 'tone', 'words'])
    // A listing that is not published is not shown to buyers.
    await expect(
      service.handlers.getListing({ environment: 'Market', listingId: 'ada-draft' }, ipc),
    ).rejects.toMatchObject({ code: 'not-found' })
  })

  it('plans, refuses without confirmation or above the cap, then executes once', async () => {
    const book = join(home, 'ads.xlsx')
    await writeBuyerWorkbook(book, [
      ['Kettle', 'friendly', 20],
      ['Lamp', 'formal', null],
      ['Desk', 'Friendly', 35],
    ])
    const plan = await planFromPath(book, 'ads.xlsx')
    expect(plan).toMatchObject({
      rowCount: 3,
      rowNumbers: [2, 3, 4],
      rowNumbering: 'spreadsheet',
      taskFixedFeeT: LISTING_FEE,
      estimateT: 3 * LISTING_FEE,
      estimateSource: 'fee',
      terms: 'flat-task-fee-1',
      schemaSource: 'market',
      confirmRequired: true,
      duplicateOf: null,
    })
    expect(plan.validation.valid).toBe(true)
    expect(plan.summary).toContain(`3 rows x ${LISTING_FEE} credits per task = 12 credits`)
    const before = await runCount()

    // `confirmed` must be the literal true: anything else is refused before the engine.
    await expect(
      service.handlers.confirmSubmission(
        // @ts-expect-error: the contract only accepts confirmed: true
        { environment: 'Market', planId: plan.planId, confirmed: false },
        ipc,
      ),
    ).rejects.toThrow()
    await expect(
      service.handlers.confirmSubmission(
        { environment: 'Market', planId: plan.planId, confirmed: true, maxCostT: 11 },
        ipc,
      ),
    ).rejects.toMatchObject({ message: expect.stringMatching(/above your cap of 11/) })
    expect(await runCount()).toBe(before)

    const sent = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: plan.planId, confirmed: true, maxCostT: 12 },
      ipc,
    )
    expect(sent.runId).toMatch(/\S/)
    expect(await runCount()).toBe(before + 1)
    const detail = await waitForRun(sandbox, sent.runId, BUYER_TOKEN)
    expect(detail.run.status).toBe('succeeded')
    expect(detail.market?.taskFixedFeeT).toBe(LISTING_FEE)
    expect(detail.run.actualCostT).toBe(3 * LISTING_FEE)
    expect(
      updates.some((u) => u.clientRequestId === sent.clientRequestId && u.state === 'accepted'),
    ).toBe(true)

    // The plan is used up.
    await expect(
      service.handlers.confirmSubmission(
        { environment: 'Market', planId: plan.planId, confirmed: true },
        ipc,
      ),
    ).rejects.toMatchObject({ code: 'not-found' })

    // The same workbook again: the earlier run is named, and nothing is sent without `again`.
    const again = await service.handlers.planSubmission(
      {
        environment: 'Market',
        file: {
          kind: 'bytes',
          name: 'ads.xlsx',
          base64: readFileSync(book).toString('base64'),
        },
        target: LISTING_TARGET,
      },
      http,
    )
    expect(again.duplicateOf).toMatchObject({ runId: sent.runId })
    await expect(
      service.handlers.confirmSubmission(
        { environment: 'Market', planId: again.planId, confirmed: true },
        http,
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining(sent.runId) })
    expect(await runCount()).toBe(before + 1)
    const second = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: again.planId, confirmed: true, again: true },
      http,
    )
    expect(second.runId).not.toBe(sent.runId)
    expect(second.againOf).toBe(sent.runId)
    expect(await runCount()).toBe(before + 2)
  })

  it('refuses paths over HTTP', async () => {
    await expect(planFromPath('/etc/passwd', 'passwd', http)).rejects.toBeInstanceOf(BridgeError)
  })

  it('a lost answer: shown as unanswered, sent again with the same id, one run in all', async () => {
    const book = join(home, 'lost.xlsx')
    await writeBuyerWorkbook(book, [['Chair', 'formal', 12]])
    const plan = await planFromPath(book, 'lost.xlsx')
    const before = await runCount()
    // The service makes the run, then the connection is cut before the answer, both times the
    // client tries within this confirm.
    sandbox.injectFault({
      method: 'POST',
      path: paths.execute(LISTING_ID),
      drop: 'after',
      times: 2,
    })
    await expect(
      service.handlers.confirmSubmission(
        { environment: 'Market', planId: plan.planId, confirmed: true },
        ipc,
      ),
    ).rejects.toBeInstanceOf(BridgeError)
    const pending = await service.handlers.listPendingSubmissions({ environment: 'Market' }, ipc)
    expect(pending.items).toHaveLength(1)
    expect(pending.items[0]).toMatchObject({ state: 'sent', fileName: 'lost.xlsx', rowCount: 1 })

    // The service made the run; only its answer was lost. Listing sends nothing; asking for it
    // sends it again, with the same request id: still one run.
    const id = pending.items[0]!.clientRequestId
    expect(await runCount()).toBe(before + 1)
    await service.handlers.resendPendingSubmissions({ environment: 'Market' }, ipc)
    await until(() => updates.some((u) => u.clientRequestId === id && u.state === 'accepted'))
    expect(await runCount()).toBe(before + 1)
    expect(
      (await service.handlers.listPendingSubmissions({ environment: 'Market' }, ipc)).items,
    ).toEqual([])
    // The same workbook again is now an accepted duplicate: nothing is sent without `again`.
    const replan = await planFromPath(book, 'lost.xlsx')
    expect(replan.duplicateOf?.clientRequestId).toBe(id)
  })

  it('retries only the failed rows of a listing run, priced and confirmed like a first send', async () => {
    const book = join(home, 'mixed.xlsx')
    await writeBuyerWorkbook(book, [
      ['Vase', 'formal', 10],
      ['Broken [[fail]]', 'friendly', 11],
      ['Rug', 'formal', 12],
    ])
    const plan = await planFromPath(book, 'mixed.xlsx')
    const sent = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: plan.planId, confirmed: true },
      ipc,
    )
    const ended = await waitForRun(sandbox, sent.runId, BUYER_TOKEN)
    expect(ended.run.failedTasks).toBe(1)
    // The run's cost is what it actually cost once ended: the two rows that succeeded.
    expect(ended.run.actualCostT).toBe(2 * LISTING_FEE)

    const retry = await service.handlers.planRetryFailed(
      { environment: 'Market', runId: sent.runId },
      ipc,
    )
    expect(retry).toMatchObject({
      rowCount: 1,
      rowNumbers: [3],
      rowNumbering: 'spreadsheet',
      estimateT: LISTING_FEE,
      confirmRequired: true,
      retryOfRunId: sent.runId,
    })
    expect(retry.summary).toMatch(new RegExp(`failed rows of run ${sent.runId}`))
    const again = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: retry.planId, confirmed: true },
      ipc,
    )
    const retried = await waitForRun(sandbox, again.runId, BUYER_TOKEN)
    expect(retried.run.totalTasks).toBe(1)
  })
})
