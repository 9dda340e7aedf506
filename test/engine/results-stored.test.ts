// The results workbook of a run sent alone is made from the rows stored in the history, a window
// at a time: each line as the run's detail, read whole, says.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import { writeResultsWorkbook } from '../../src/core/flows/results/results'
import { statusLabel } from '../../src/shared/format'
import { saveOutputsOnEnd } from '../../src/core/flows/results/save-on-end'
import { WINDOWED_FROM } from '../../src/core/flows/watch/stored-detail'
import { nodeHttpFetcher, type FetchLike } from '../../src/core/service'
import { sendRowEcho, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let engine: Engine
let connection: Connection

/** Each read of a run's detail the engine sent, by run id. */
const detailReads: string[] = []

beforeAll(async () => {
  // Tasks at once and at no pace: the run past the windowed size ends in seconds.
  sandbox = await startTestSandbox({ taskMs: 0, concurrency: 16 })
  // The engine's own HTTP client, each read of a run's detail counted on its way.
  const own = nodeHttpFetcher()
  const fetch: FetchLike = (input, init) => {
    const runId = /\/runs\/([^/]+)$/.exec(new URL(input).pathname)?.[1]
    if (runId && (init?.method ?? 'GET') === 'GET') detailReads.push(runId)
    return own(input, init)
  }
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-results-stored-')), {
    tokenOverride: sandbox.token,
    fetch,
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
  it("shows each row as the run's detail read whole says", async () => {
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
    const detail = await connection.client.run(runId)
    const cells = await cellsOf(join(dir, 'stored.xlsx'))
    const results = cells.filter((line) => line[0] === 'Results')
    const header = results[0]!.slice(2).map((c) => (c as unknown[])[0])
    expect(header).toEqual([
      'Sheet row',
      'message',
      'details',
      'sequence',
      'Task status',
      'Error',
      'row',
      'Redo?',
    ])
    const value = (i: number, name: string) =>
      (results[i + 1]![header.indexOf(name) + 2] as unknown[] | undefined)?.[0] ?? null
    for (let i = 0; i < count; i += 1) {
      const task = detail.tasks.find((t) => t.sourceRowIndex === i)!
      const output = detail.artifacts.find((a) => a.sourceRowIndex === i)
      expect(value(i, 'Sheet row')).toBe(i + 2)
      expect(value(i, 'sequence')).toBe(i + 1)
      expect(value(i, 'Task status')).toBe(statusLabel(task.status))
      expect(value(i, 'Error') ?? '').toBe(task.errorMessage)
      const shown = value(i, 'row')
      if (!output) expect(shown).toBeNull()
      else if (output.inlineText && output.inlineText.length <= 32_000)
        expect(shown).toBe(output.inlineText)
      else
        expect(shown).toMatchObject({
          hyperlink: expect.stringContaining(`row-${String(i + 2).padStart(3, '0')}`),
        })
    }
    const flat = JSON.stringify(cells)
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
    const readsBefore = detailReads.filter((id) => id === runId).length
    const saved = await saveOutputsOnEnd(engine, settings, connection, runId)
    // Its detail read once, and saved from that reading: not read a second time to save it.
    expect(detailReads.filter((id) => id === runId).length - readsBefore).toBe(1)
    expect(saved!.failed).toEqual([])
    expect(saved!.saved).toBe(written.download.saved)
    expect(saved!.reused).toBe(saved!.saved)
  }, 240_000)
})
