// A pilot and the rest of its workbook are one batch in the results workbook too: the real
// engine and the real sandbox over HTTP, a pilot of 2 rows of a 5-row workbook, then the rest of
// 3. The results workbook of either run, saved by the app (the Bridge's saveResultsWorkbook) and
// by the command line (`runs results`), holds all 5 rows in sheet order, each saying in words
// which run sent it; the runs' ids are on the Run sheet.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import { confirmPlan, planRestOfPilot, planSubmission } from '../../src/core/flows/spend'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import type { ReadSheet } from '../../src/core/flows/spend/set-aside'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { runCliOn } from '../helpers/cli'
import { browserBridgeService, http, runEnded, testEngine } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox()
const home = mkdtempSync(join(tmpdir(), 'sr-batch-results-'))
let engine: Engine
let service: BridgeService
let pilotRunId: string
let restRunId: string

const read: ReadSheet = (path, schema) =>
  parseInputWorkbook({ path }, schema, { keepRows: true, checkFiles: true })

beforeAll(async () => {
  engine = testEngine(home, { tokenOverride: sandbox.token })
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
  service = browserBridgeService(engine)
  const connection = await engine.connect({ env: 'Local' })
  const csv = join(home, 'five.csv')
  writeFileSync(csv, ['Message', 'one', 'two', 'three', 'four', 'five'].join('\n'))
  const pilotPlan = await planSubmission(engine, connection, read, {
    file: csv,
    target: { kind: 'template', templateId: 'row-echo' },
    selection: { first: 2 },
  })
  pilotRunId = (await confirmPlan(engine, pilotPlan, { confirmed: true })).submission.runId
  await runEnded(connection, pilotRunId)
  const rest = await planRestOfPilot(engine, connection, read, pilotRunId)
  restRunId = (await confirmPlan(engine, rest, { confirmed: true })).submission.runId
  await runEnded(connection, restRunId)
})
afterAll(async () => {
  service?.dispose()
  await engine?.close()
})

/** The Results sheet as text, header first, and the Run sheet as label -> value. */
async function readBack(path: string) {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  const text = (v: ExcelJS.CellValue) =>
    v && typeof v === 'object' && 'text' in v ? String(v.text) : v === null ? '' : String(v)
  const results: string[][] = []
  const links: string[][] = []
  book.getWorksheet('Results')!.eachRow((row) => {
    const values = (row.values as ExcelJS.CellValue[]).slice(1)
    results.push(values.map(text))
    links.push(
      values.map((v) =>
        v && typeof v === 'object' && 'hyperlink' in v ? String(v.hyperlink) : '',
      ),
    )
  })
  const about = new Map<string, string>()
  book.getWorksheet('Run')!.eachRow((row) => {
    about.set(text(row.getCell(1).value), text(row.getCell(2).value))
  })
  return { results, links, about }
}

function expectOneBatch(book: Awaited<ReturnType<typeof readBack>>, asked: string) {
  const [header, ...rows] = book.results
  expect(header!.slice(0, 3)).toEqual(['Sheet row', 'Sent in', 'Message'])
  expect(rows.map((r) => r.slice(0, 3))).toEqual([
    ['2', 'Pilot', 'one'],
    ['3', 'Pilot', 'two'],
    ['4', 'Rest', 'three'],
    ['5', 'Rest', 'four'],
    ['6', 'Rest', 'five'],
  ])
  const status = header!.indexOf('Task status')
  expect(rows.map((r) => r[status])).toEqual(Array(5).fill('Succeeded'))
  // Each row's output is its own run's: the link goes into that run's folder, row by row.
  const output = status + 2
  const pilotFolder = encodeURI(runFolderName(pilotRunId))
  const restFolder = encodeURI(runFolderName(restRunId))
  expect(book.links.slice(1).map((r) => r[output])).toEqual([
    `${pilotFolder}/row-002/row-2.json`,
    `${pilotFolder}/row-003/row-3.json`,
    `${restFolder}/row-004/row-4.json`,
    `${restFolder}/row-005/row-5.json`,
    `${restFolder}/row-006/row-6.json`,
  ])
  // The run asked for heads the Run sheet (a redo from this workbook is of that run); both
  // runs' ids are kept there, out of the way of the rows.
  expect(book.about.get('Run')).toBe(asked)
  expect(book.about.get('Pilot run')).toBe(pilotRunId)
  expect(book.about.get('Rest run')).toBe(restRunId)
  expect(book.about.get('Tasks')).toBe('5 done, 0 failed, 0 cancelled of 5')
}

describe('the results workbook of a pilot and its rest', () => {
  it('the app saves one sheet of both runs, in sheet row order, from the pilot', async () => {
    const saved = await service.handlers.saveResultsWorkbook(
      { environment: 'Local', runId: pilotRunId },
      http,
    )
    expect(saved.rows).toBe(5)
    expectOneBatch(await readBack(saved.path), pilotRunId)
  })

  it('the command line makes the same workbook from the rest', async () => {
    const out = join(home, 'cli', 'rest results.xlsx')
    const result = await runCliOn({ baseUrl: sandbox.url, token: sandbox.token, home }, [
      'runs',
      'results',
      restRunId,
      '-o',
      out,
      '--json',
    ])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ path: out })
    expectOneBatch(await readBack(out), restRunId)
  })
})
