// The results workbook of a sheet sent as parts is written from the rows stored in the history,
// part by part: the real engine and the real sandbox over HTTP (5 rows a request), a sheet of
// 13 rows sent as three runs under one consent, two rows of the second redone (one succeeds
// again, one fails again). Each line of the workbook is checked against what the runs' details
// say: the sheet's row, the part in words, the cells sent, the task's outcome and error, the
// output of the kept version; the Run sheet adds the parts up.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import type { Connection } from '../../src/core/environments/connection'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { planRedo } from '../../src/core/flows/spend/plan-redo'
import type { ReadSheet } from '../../src/core/flows/spend/set-aside'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import { writeResultsWorkbook } from '../../src/core/flows/results/results'
import { parseInputWorkbook } from '../../src/core/workbooks'
import type { RunDetail } from '../../src/shared/contract'
import { statusLabel } from '../../src/shared/format'
import { runEnded, testEngine } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox({ maxRows: 5 })
const home = mkdtempSync(join(tmpdir(), 'sr-parts-results-'))
let engine: Engine
let connection: Connection
let parts: string[]
let redoRunId: string

const ROWS = 13
/** The sheet's messages, by sheet row (2 to 14); rows 4 and 9 fail. */
const message = (sheetRow: number) =>
  [4, 9].includes(sheetRow) ? `row ${sheetRow} [[fail]]` : `row ${sheetRow}`

const read: ReadSheet = (path, schema) =>
  parseInputWorkbook({ path }, schema, { keepRows: true, checkFiles: true })

beforeAll(async () => {
  engine = testEngine(home, { tokenOverride: sandbox.token })
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
  connection = await engine.connect({ env: 'Local' })
  const csv = join(home, 'thirteen.csv')
  const lines = Array.from({ length: ROWS }, (_, i) => message(i + 2))
  writeFileSync(csv, ['Message', ...lines].join('\n'))
  const target = { kind: 'template' as const, templateId: 'row-echo' }
  const plan = await planSubmission(engine, connection, read, { file: csv, target })
  const done = await confirmPlan(engine, plan, { confirmed: true })
  parts = done.parts.map((p) => p.runId)
  for (const runId of parts) await runEnded(connection, runId)
  const redo = await planRedo(engine, connection, parts[1]!, [8, 9])
  redoRunId = (await confirmPlan(engine, redo, { confirmed: true })).submission.runId
  await runEnded(connection, redoRunId)
}, 60_000)
afterAll(async () => {
  await engine?.close()
})

type Cell = ExcelJS.CellValue
const text = (v: Cell) =>
  v && typeof v === 'object' && 'text' in v ? String(v.text) : v === null ? '' : String(v)
const link = (v: Cell) => (v && typeof v === 'object' && 'hyperlink' in v ? v.hyperlink : '')

describe('the results workbook of a sheet sent in three parts', () => {
  it('holds every row in sheet order, each as its kept version says', async () => {
    expect(parts).toHaveLength(3)
    const path = join(home, 'out', 'results.xlsx')
    const written = await writeResultsWorkbook(engine, connection, parts[1]!, path)
    expect(written.rows).toBe(ROWS)

    const details = new Map<string, RunDetail>()
    for (const runId of [...parts, redoRunId])
      details.set(runId, await connection.client.run(runId))
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(path)
    const sheet = book.getWorksheet('Results')!
    const header = (sheet.getRow(1).values as Cell[]).slice(1).map(text)
    expect(header.slice(0, 5)).toEqual(['Sheet row', 'Sent in', 'Message', 'Task status', 'Error'])
    expect(header.at(-1)).toBe('Redo?')
    const cell = (line: number, name: string) =>
      sheet.getRow(line).getCell(header.indexOf(name) + 1).value

    for (let i = 0; i < ROWS; i += 1) {
      const line = i + 2
      const sheetRow = i + 2
      const part = Math.floor(i / 5)
      // Sheet row 8 was redone and succeeded again: its later version is kept. Row 9 failed
      // again: the first one stays.
      const runId = sheetRow === 8 ? redoRunId : parts[part]!
      const index = sheetRow === 8 ? 0 : i % 5
      const detail = details.get(runId)!
      const task = detail.tasks.find((t) => t.sourceRowIndex === index)!
      const output = detail.artifacts.find((a) => a.sourceRowIndex === index)
      expect(cell(line, 'Sheet row')).toBe(sheetRow)
      expect(cell(line, 'Sent in')).toBe(`Part ${part + 1}`)
      expect(cell(line, 'Message')).toBe(message(sheetRow))
      expect(cell(line, 'Task status')).toBe(statusLabel(task.status))
      expect(text(cell(line, 'Error'))).toBe(task.errorMessage)
      const out = cell(line, header[5]!)
      if (!output) expect(out).toBeNull()
      else if (output.inlineText) expect(out).toBe(output.inlineText)
      else
        expect(link(out)).toMatch(
          new RegExp(`^${encodeURI(runFolderName(runId))}/row-0*${sheetRow}/`),
        )
    }

    const about = new Map<string, string>()
    book.getWorksheet('Run')!.eachRow((row) => {
      about.set(text(row.getCell(1).value), text(row.getCell(2).value))
    })
    expect(about.get('Run')).toBe(parts[1])
    expect(parts.map((_, p) => about.get(`Part ${p + 1} run`))).toEqual(parts)
    expect(about.get('Tasks')).toBe(`11 done, 2 failed, 0 cancelled of ${ROWS}`)
  })
})
