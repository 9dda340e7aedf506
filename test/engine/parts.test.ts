// A sheet with more rows than the service takes in one request goes as parts under one consent:
// the real engine and the real sandbox over HTTP, the sandbox taking at most 5 rows a request.
// Sent whole first, the refusal teaches the limit and the rows go as three runs of one batch;
// known, the plan says so before the consent; sent again, nothing goes twice.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import {
  confirmPlan,
  describePlan,
  DuplicateSubmissionError,
  planSubmission,
} from '../../src/core/flows/spend'
import type { ReadSheet } from '../../src/core/flows/spend/set-aside'
import type { Connection } from '../../src/core/environments/connection'
import { limitInRefusal } from '../../src/core/flows/spend/row-limits'
import { ApiError } from '../../src/core/service'
import { paths, type RunList } from '../../src/shared/contract'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { browserBridgeService, http, runEnded, testEngine } from '../helpers/engine'
import { call, useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox({ maxRows: 5 })
const home = mkdtempSync(join(tmpdir(), 'sr-parts-'))
let engine: Engine
let connection: Connection

const read: ReadSheet = (path, schema) =>
  parseInputWorkbook({ path }, schema, { keepRows: true, checkFiles: true })

function sheet(name: string, rows: number): string {
  const csv = join(home, name)
  const lines = Array.from({ length: rows }, (_, i) => `${name} row ${i + 1}`)
  writeFileSync(csv, ['Message', ...lines].join('\n'))
  return csv
}

const plan = (file: string) =>
  planSubmission(engine, connection, read, {
    file,
    target: { kind: 'template', templateId: 'row-echo' },
  })

async function runsOnService() {
  const list = await call<RunList>(sandbox, `${paths.runs()}?pageSize=100`)
  return list.body.items
}

beforeAll(async () => {
  engine = testEngine(home, { tokenOverride: sandbox.token })
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
  connection = await engine.connect({ env: 'Local' })
})
afterAll(async () => {
  await engine?.close()
})

describe('a sheet three times the limit', () => {
  it('sent whole with no limit known: the refusal teaches 5 and the rows go as three runs of one batch', async () => {
    const first = await plan(sheet('learnt.csv', 15))
    expect(first.parts).toBeUndefined()
    const done = await confirmPlan(engine, first, { confirmed: true })
    expect(done.parts.map((p) => engine.submissions.get(p.id).rowNumbers)).toEqual([
      [2, 3, 4, 5, 6],
      [7, 8, 9, 10, 11],
      [12, 13, 14, 15, 16],
    ])
    expect(done.submission.runId).toBe(done.parts[0]!.runId)
    expect(engine.rowLimits.of(connection.historyKey)).toEqual({ rows: 5, source: 'learnt' })
    const batch = engine.batches.ofRun(connection.historyKey, done.parts[0]!.runId)!
    const sends = engine.batches.sendsOf(batch.id)
    // The whole sheet was refused (nothing made), then each part was accepted as a run.
    expect(sends.map((s) => [s.state, s.kind])).toEqual([
      ['refused', 'all'],
      ['accepted', 'part'],
      ['accepted', 'part'],
      ['accepted', 'part'],
    ])
    const runs = await runsOnService()
    expect(runs.map((r) => r.totalTasks)).toEqual([5, 5, 5])
    for (const part of done.parts) await runEnded(connection, part.runId)
    const state = await engine.batches.state(connection, batch.id)
    expect(state?.summary).toBe('15 rows: 15 succeeded')
  })

  it('the results workbook of any part holds the whole sheet, each row saying which part sent it', async () => {
    const [last] = await runsOnService()
    const service = browserBridgeService(engine)
    try {
      const saved = await service.handlers.saveResultsWorkbook(
        { environment: 'Local', runId: last!.runId },
        http,
      )
      expect(saved.rows).toBe(15)
      const book = new ExcelJS.Workbook()
      await book.xlsx.readFile(saved.path)
      const sentIn: string[] = []
      book.getWorksheet('Results')!.eachRow((row, n) => {
        if (n > 1) sentIn.push(String(row.getCell(2).value))
      })
      expect(sentIn).toEqual([
        ...Array(5).fill('Part 1'),
        ...Array(5).fill('Part 2'),
        ...Array(5).fill('Part 3'),
      ])
    } finally {
      service.dispose()
    }
  })

  it('with the limit known, the plan says the parts and the whole cost before the consent', async () => {
    const before = (await runsOnService()).length
    const planned = await plan(sheet('known.csv', 12))
    expect(planned.parts?.parts.map((p) => [p.start, p.end])).toEqual([
      [0, 5],
      [5, 10],
      [10, 12],
    ])
    expect(describePlan(planned)).toContain(
      '12 rows go as 3 parts of at most 5 rows (the most the service takes at once), each its own run, sent one after another under this one confirmation; the whole cost is',
    )
    const done = await confirmPlan(engine, planned, { confirmed: true })
    expect(done.parts.map((p) => p.rowCount)).toEqual([5, 5, 2])
    expect((await runsOnService()).length).toBe(before + 3)

    // The same sheet again: every part was accepted, so it is a duplicate and nothing is sent.
    const again = await plan(sheet('known.csv', 12))
    expect(again.duplicateOf?.runId).toBe(done.parts[0]!.runId)
    await expect(confirmPlan(engine, again, { confirmed: true })).rejects.toBeInstanceOf(
      DuplicateSubmissionError,
    )
    expect((await runsOnService()).length).toBe(before + 3)
  })
})

describe('an xlsx sheet, as a spreadsheet program saves one', () => {
  it('goes as parts the same way, each part naming the sheet rows it sent', async () => {
    // The limit of 5 is known from the refusal above; a title row sits above the headers.
    const file = join(home, 'catalogue.xlsx')
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('Catalogue')
    sheet.addRow(['Spring catalogue'])
    sheet.addRow(['Message'])
    for (let i = 1; i <= 12; i += 1) sheet.addRow([`xlsx row ${i}`])
    await book.xlsx.writeFile(file)
    const before = (await runsOnService()).length
    const planned = await plan(file)
    expect(planned.parts?.parts.map((p) => p.end - p.start)).toEqual([5, 5, 2])
    const done = await confirmPlan(engine, planned, { confirmed: true })
    expect(done.parts.map((p) => engine.submissions.get(p.id).rowNumbers)).toEqual([
      [3, 4, 5, 6, 7],
      [8, 9, 10, 11, 12],
      [13, 14],
    ])
    const runs = await runsOnService()
    expect(runs.length).toBe(before + 3)
    expect(runs.slice(0, 3).map((r) => r.totalTasks)).toEqual([2, 5, 5])
  })
})

describe('a limit set higher than the service takes', () => {
  it('the refused part is split at the limit the refusal names, and no part is sent twice', async () => {
    engine.rowLimits.set(connection.historyKey, 10)
    const before = (await runsOnService()).length
    const planned = await plan(sheet('lower.csv', 15))
    expect(planned.parts?.parts.map((p) => [p.start, p.end])).toEqual([
      [0, 10],
      [10, 15],
    ])
    const done = await confirmPlan(engine, planned, { confirmed: true })
    expect(done.parts.map((p) => engine.submissions.get(p.id).rowNumbers[0])).toEqual([2, 7, 12])
    expect(engine.rowLimits.of(connection.historyKey)).toEqual({ rows: 5, source: 'learnt' })
    const batch = engine.batches.ofRun(connection.historyKey, done.parts[0]!.runId)!
    // In the order sent: the refused part, then its two halves, then the last part.
    const sends = engine.batches.sendsOf(batch.id)
    expect(sends.map((s) => [s.state, s.rowNumbers[0], s.rowCount])).toEqual([
      ['refused', 2, 10],
      ['accepted', 2, 5],
      ['accepted', 7, 5],
      ['accepted', 12, 5],
    ])
    const runs = await runsOnService()
    expect(runs.length).toBe(before + 3)
    expect(runs.slice(0, 3).map((r) => r.totalTasks)).toEqual([5, 5, 5])
  })
})

describe('the limit in a refusal, read defensively', () => {
  const refusal = (serverMessage: string, status = 400) =>
    new ApiError({ kind: 'http', status, request: 'POST x', origin: 'http://x', serverMessage })

  it('reads the number after "at most" in a refusal about rows', () => {
    expect(limitInRefusal(refusal('rows has 15 rows; send at most 5 per request.'))).toBe(5)
    expect(limitInRefusal(refusal('Too many rows: at most 10,000 per request'))).toBe(10_000)
  })

  it('takes nothing from other words, other statuses, or numbers past belief', () => {
    expect(limitInRefusal(refusal('send at most 5 per request.'))).toBeNull()
    expect(limitInRefusal(refusal('rows: at most 0 per request'))).toBeNull()
    expect(limitInRefusal(refusal('rows: at most 99999999999 per request'))).toBeNull()
    expect(limitInRefusal(refusal('rows has 15 rows; send at most 5.', 500))).toBeNull()
    expect(limitInRefusal(new Error('rows: at most 5'))).toBeNull()
  })
})
