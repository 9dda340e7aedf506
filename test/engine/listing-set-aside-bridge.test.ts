// A listing the buyer does not own, through the Bridge handlers with the real engine, the real
// sandbox over HTTP and the real workbook worker: the service checks what it is sent against
// the listing's own headers, so a sheet with a title row, renamed headers and bad rows is sent
// as a copy holding its valid rows only; the rows set aside, fixed and dropped again, go as the
// first run's follow-up. Row numbers stay the user's sheet's. A set-aside workbook under the
// listing's own headers goes as a copy too: its Problem and hidden Sheet row columns are no
// listing's, and the service's check would refuse them.
import { mkdtempSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import { paths, type RunDetail } from '../../src/shared/contract'
import {
  BUYER_SANDBOX,
  BUYER_TOKEN,
  LISTING_FEE,
  LISTING_TARGET,
  buyerRunCount,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'
import { browserBridgeService, http, testEngine } from '../helpers/engine'
import { call, startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let engine: Engine
let service: BridgeService

beforeAll(async () => {
  sandbox = await startTestSandbox(BUYER_SANDBOX)
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-listing-aside-')), {
    api: { maxAttempts: 2, backoffMs: 5, maxBackoffMs: 10 },
  })
  await engine.addEnvironment({ name: 'Market', baseUrl: sandbox.url, token: BUYER_TOKEN })
  service = browserBridgeService(engine)
})
afterAll(async () => {
  service.dispose()
  await engine.close()
  await sandbox.close()
})

const BAD = [4, 9]
/** 10 rows under a title, with the buyer's own headers; rows 4 and 9 have words that are not a number. */
async function ownSheet(): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Ads')
  sheet.addRow(['Ads for the spring catalogue'])
  sheet.addRow(['Item', 'Voice', 'Word count', 'Owner'])
  for (let i = 1; i <= 10; i += 1)
    sheet.addRow([`Lamp ${i}`, 'friendly', BAD.includes(i) ? 'lots' : 10 + i, 'bea'])
  return Buffer.from(await book.xlsx.writeBuffer())
}
const bytes = (name: string, data: Buffer) => ({
  kind: 'bytes' as const,
  name,
  base64: data.toString('base64'),
})
const MAPPING = { Item: 'product', Voice: 'tone', 'Word count': 'words', Owner: null }

/** The set-aside workbook kept with `runId`, as a user opens it. */
async function savedToFix(runId: string): Promise<ExcelJS.Workbook> {
  const saved = await service.handlers.saveSetAsideRows({ environment: 'Market', runId }, http)
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(
    Buffer.from(saved!.kind === 'bytes' ? saved!.base64 : '', 'base64') as unknown as ArrayBuffer,
  )
  return book
}

const plan = (file: ReturnType<typeof bytes>, skipInvalid?: boolean) =>
  service.handlers.planSubmission(
    {
      environment: 'Market',
      file,
      target: LISTING_TARGET,
      ...(skipInvalid ? { skipInvalid } : {}),
    },
    http,
  )

async function tasksOf(runId: string): Promise<number> {
  const detail = await call<RunDetail>(sandbox, paths.run(runId), { token: BUYER_TOKEN })
  return detail.body.run.totalTasks
}

describe('set the rows with problems aside, for a listing (Bridge)', () => {
  it('sends a copy of the 8 valid rows, then the 2 fixed ones as its follow-up', async () => {
    const sheet = bytes('spring.xlsx', await ownSheet())
    const checked = await service.handlers.checkWorkbook(
      {
        environment: 'Market',
        checkId: 'listing-aside-1',
        file: sheet,
        target: LISTING_TARGET,
        mapping: MAPPING,
      },
      http,
    )
    expect(checked.mapping?.source).toBe('given')
    expect(checked.rowCount).toBe(10)
    expect(new Set(checked.problems.map((p) => p.rowNumber))).toEqual(new Set([6, 11]))

    const refused = await plan(sheet)
    expect(refused.planId).toBe('')

    const before = await buyerRunCount(sandbox)
    const valid = await plan(sheet, true)
    expect(valid.validation.valid).toBe(true)
    expect(valid.rowCount).toBe(8)
    expect(valid.setAsideRows).toBe(2)
    expect(valid.estimateT).toBe(8 * LISTING_FEE)
    // Named by the rows of the user's own sheet (headers on row 2), not of the copy sent.
    expect(valid.rowNumbers).toEqual([3, 4, 5, 7, 8, 9, 10, 12])
    expect(await buyerRunCount(sandbox)).toBe(before)

    const sent = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: valid.planId, confirmed: true },
      http,
    )
    expect(await tasksOf(sent.runId!)).toBe(8)

    const book = await savedToFix(sent.runId!)
    const toFix = book.getWorksheet('To fix')!
    // The user's own columns, as they were, then what is wrong with each row to fix, then
    // (hidden) the row of the user's sheet each came from.
    const headers = ['Item', 'Voice', 'Word count', 'Owner', 'Problem (Skill Runner)']
    expect(toFix.getRow(1).values).toEqual([undefined, ...headers, 'Sheet row (Skill Runner)'])
    expect(toFix.getColumn(6).hidden).toBe(true)
    expect([toFix.getCell('F2').value, toFix.getCell('F3').value]).toEqual([6, 11])
    expect(toFix.getCell('A2').value).toBe('Lamp 4')
    for (const r of [2, 3]) toFix.getCell(r, 3).value = 40 + r
    const fixed = bytes('spring rows to fix.xlsx', Buffer.from(await book.xlsx.writeBuffer()))

    // The same headers map by themselves (remembered); the fixed rows are the run's follow-up.
    const followUp = await plan(fixed)
    expect(followUp.validation.valid).toBe(true)
    expect(followUp.rowCount).toBe(2)
    expect(followUp.followsSetAsideOf).toBe(sent.runId)
    expect(followUp.estimateT).toBe(2 * LISTING_FEE)
    const second = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: followUp.planId, confirmed: true },
      http,
    )
    expect(await tasksOf(second.runId!)).toBe(2)

    const history = await service.handlers.listHistory({}, http)
    const first = history.items.findIndex((i) => i.runId === sent.runId)
    expect(history.items[first]).toMatchObject({ setAsideRows: 2, followUps: [second.runId] })
    expect(history.items[first + 1]).toMatchObject({
      runId: second.runId,
      followUpOfRunId: sent.runId,
    })
  })

  it('sends a set-aside workbook under the listing’s own headers as a copy the service accepts', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sr-listing-aside-own-')), 'ads.xlsx')
    await writeBuyerWorkbook(path, [
      ['Lamp', 'friendly', 10],
      ['Desk', 'loud', 11],
      ['Chair', 'formal', 12],
    ])
    const sheet = bytes('ads.xlsx', await readFile(path))
    const valid = await plan(sheet, true)
    expect(valid.setAsideRows).toBe(1)
    const sent = await service.handlers.confirmSubmission(
      { environment: 'Market', planId: valid.planId, confirmed: true },
      http,
    )
    const book = await savedToFix(sent.runId!)
    const toFix = book.getWorksheet('To fix')!
    expect(toFix.getCell('C2').value).toBe(11)
    expect(toFix.getCell('E2').value).toBe(3)
    toFix.getCell('B2').value = 'formal'
    const fixed = bytes('ads rows to fix.xlsx', Buffer.from(await book.xlsx.writeBuffer()))

    const followUp = await plan(fixed)
    expect(followUp.validation.fileErrors).toEqual([])
    expect(followUp.validation.valid).toBe(true)
    expect(followUp.rowCount).toBe(1)
    expect(followUp.followsSetAsideOf).toBe(sent.runId)
  })
})
