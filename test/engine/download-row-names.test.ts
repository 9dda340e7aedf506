// Downloaded files named in the same row numbers as their folder (issue #23, item 6): a
// service's "row-1.json" for the first row sent is sheet row 2's file, so it is saved as
// row-002/row-2.json, never row-002/row-1.json.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import { nameInSheetRows } from '../../src/core/flows/downloads/row-names'
import { SUBMITTED_ROWS, spreadsheetRows } from '../../src/shared/format'
import { sendRowEcho, testEngine } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox()
let engine: Engine
let connection: Connection
let runId: string

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-row-names-'))
  engine = testEngine(home, { tokenOverride: sandbox.token })
  connection = await engine.connect({ baseUrl: sandbox.url })
  const rows = [
    { message: 'first', sequence: 1 },
    { message: 'second', sequence: 2 },
  ]
  runId = await sendRowEcho(engine, connection, rows, [2, 5])
})
afterAll(() => engine.close())

it('saves a row’s files under its sheet row number, in the folder and in the file name', async () => {
  const out = mkdtempSync(join(tmpdir(), 'sr-row-names-out-'))
  const download = await engine.downloads.run(connection, runId, out, {
    rowNumbering: spreadsheetRows([2, 5]),
    listFiles: true,
  })
  expect(download.failed).toEqual([])
  const saved = download.files.map((f) => relative(download.folder, f.path)).sort()
  expect(saved).toEqual(['row-002/row-2.json', 'row-005/row-5.json'])
})

it('renumbers the position a name carries, 1-based or 0-based, and nothing else', () => {
  const sheet = spreadsheetRows([2, 3, 6])
  expect(nameInSheetRows('row-1.json', sheet, 0)).toBe('row-2.json')
  expect(nameInSheetRows('summary_row_3.txt', sheet, 2)).toBe('summary_row_6.txt')
  expect(nameInSheetRows('Row2-report.pdf', sheet, 2)).toBe('Row6-report.pdf')
  expect(nameInSheetRows('row-007.json', sheet, 2)).toBe('row-007.json')
  expect(nameInSheetRows('arrow-1.json', sheet, 0)).toBe('arrow-1.json')
  expect(nameInSheetRows('row-10.json', sheet, 0)).toBe('row-10.json')
  expect(nameInSheetRows('report.pdf', sheet, 0)).toBe('report.pdf')
  // Rows known only by their position: the folder says row-001 and the file row-1 already.
  expect(nameInSheetRows('row-1.json', SUBMITTED_ROWS, 0)).toBe('row-1.json')
  expect(basename(nameInSheetRows('row-1.json', null, 0))).toBe('row-1.json')
})
