// The results workbook of a run sent alone is made from the rows stored in the history, a page
// at a time; made from the run's detail held whole it is the same workbook, cell for cell.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import {
  downloadRunOutputs,
  writePlannedResults,
  writeResultsWorkbook,
} from '../../src/core/flows/results/results'
import { resultsPlan } from '../../src/core/flows/results/results-plan'
import { heldSource } from '../../src/core/flows/results/results-source'
import { saveOutputsOnEnd } from '../../src/core/flows/results/save-on-end'
import { WINDOWED_FROM } from '../../src/core/flows/watch/stored-detail'
import { sendRowEcho, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let engine: Engine
let connection: Connection

beforeAll(async () => {
  // Tasks at once and at no pace: the run past the windowed size ends in seconds.
  sandbox = await startTestSandbox({ taskMs: 0, concurrency: 16 })
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-results-stored-')), {
    tokenOverride: sandbox.token,
  })
  connection = await engine.connect({ baseUrl: sandbox.url })
})
afterAll(async () => {
  await engine.close()
  await sandbox.close()
})

/** Rows of row-echo, every seventh one failing, some with a long text that comes back as a file. */
function echoRows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    message: i % 7 === 3 ? `row ${i} [[fail]]` : `row ${i}`,
    ...(i % 5 === 0 ? { details: `details of row ${i} `.repeat(20) } : {}),
    sequence: i + 1,
  }))
}

/** The results workbook of `runId` made from its detail held whole, as a batch's runs are. */
async function heldWorkbook(runId: string, path: string, workbookDir: string) {
  const detail = await connection.client.run(runId)
  const download = await downloadRunOutputs(engine, connection, detail, workbookDir)
  const submission = engine.submissions.byRun(connection.historyKey, runId)
  const state = submission?.batchId
    ? await engine.batches.state(connection, submission.batchId)
    : null
  const plan = resultsPlan({
    source: heldSource(detail),
    download,
    submission,
    schema: engine.schemas.cached(connection.historyKey, 'row-echo')?.schema,
    workbookDir,
    connection,
    ...(state ? { batchSummary: state.summary } : {}),
  })
  return writePlannedResults(plan, path)
}

/** Every cell of every sheet: its value and its font. */
async function cellsOf(path: string): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  const cells: unknown[][] = []
  for (const sheet of book.worksheets)
    sheet.eachRow({ includeEmpty: true }, (row, number) => {
      const line: unknown[] = [sheet.name, number]
      row.eachCell({ includeEmpty: true }, (cell) => line.push([cell.value, cell.font ?? null]))
      cells.push(line)
    })
  return cells
}

describe('the results workbook read from the history', () => {
  it('is the workbook the held detail makes, cell for cell', async () => {
    const count = 300
    const runId = await sendRowEcho(
      engine,
      connection,
      echoRows(count),
      Array.from({ length: count }, (_, i) => i + 2),
    )
    const dir = mkdtempSync(join(tmpdir(), 'sr-results-same-'))
    const stored = await writeResultsWorkbook(engine, connection, runId, join(dir, 'stored.xlsx'))
    expect(stored.rows).toBe(count)
    expect(await heldWorkbook(runId, join(dir, 'held.xlsx'), dir)).toBe(count)
    const [fromStore, fromHeld] = await Promise.all([
      cellsOf(join(dir, 'stored.xlsx')),
      cellsOf(join(dir, 'held.xlsx')),
    ])
    expect(fromStore.length).toBeGreaterThan(count)
    expect(fromStore).toEqual(fromHeld)
    const flat = JSON.stringify(fromStore)
    expect(flat).toContain('row 299')
    expect(flat).toContain('hyperlink')
  })

  it(`writes a run of more than ${WINDOWED_FROM} rows, each in its place`, async () => {
    const count = WINDOWED_FROM + 500
    const runId = await sendRowEcho(engine, connection, echoRows(count))
    const dir = mkdtempSync(join(tmpdir(), 'sr-results-big-'))
    const path = join(dir, 'big.xlsx')
    const written = await writeResultsWorkbook(engine, connection, runId, path)
    expect(written.rows).toBe(count)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(path)
    const sheet = book.getWorksheet('Results')!
    expect(sheet.rowCount).toBe(count + 1)
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    const at = (row: number, name: string) =>
      sheet.getRow(row).getCell(header.indexOf(name) + 1).value
    for (const i of [0, 3, 2500, 4999, 5000, count - 1]) {
      expect(at(i + 2, 'message')).toBe(i % 7 === 3 ? `row ${i} [[fail]]` : `row ${i}`)
      expect(at(i + 2, 'sequence')).toBe(i + 1)
      expect(String(at(i + 2, 'Task status'))).toMatch(i % 7 === 3 ? /fail/i : /done|succeeded/i)
    }
    expect(book.getWorksheet('Run')!.getCell('B6').value).toMatch(new RegExp(`of ${count}$`))
    // Saved when it ended, by its id, from the history: every output there, none fetched twice.
    const settings = {
      read: () => ({ ...engine.settings().read(), autoSaveOutputs: true, outputsFolder: dir }),
    }
    const saved = await saveOutputsOnEnd(engine, settings, connection, runId)
    expect(saved!.failed).toEqual([])
    expect(saved!.files).toHaveLength(written.download.files.length)
    expect(saved!.files.every((f) => f.skipped)).toBe(true)
  }, 240_000)
})
