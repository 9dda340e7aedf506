// `runs compare` against the sandbox: rows matched by their inputs even when they moved, JSON
// outputs compared field by field, rows in one run only, and the comparison as a workbook.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { useCliOnSandbox } from '../helpers/cli'
import { sentAndEnded } from './sent-runs'

const { sandbox, home, cli } = useCliOnSandbox('sr-compare-home-')
let runA: string
let runB: string

beforeAll(async () => {
  // Sent from this computer, so their inputs are known.
  runA = await sentAndEnded({ home, sandbox }, ['one', 'two', 'three', 'kept'])
  runB = await sentAndEnded({ home, sandbox }, ['two', 'one', 'four', 'kept'])
})

describe('runs compare', () => {
  it('matches rows by their inputs and says what differs, as JSON', async () => {
    const result = await cli(['runs', 'compare', runA, runB, '--json'])
    expect(result.code).toBe(0)
    const answer = JSON.parse(result.stdout)
    expect(Object.keys(answer)).toEqual(['rows', 'differing'])
    expect(answer.rows).toHaveLength(5)
    const pair = (message: string) =>
      answer.rows.find((r: { inputs: { message: string } | null }) => r.inputs?.message === message)
    // "one" moved from sheet row 2 to row 3: still the same row, matched by its cells.
    expect(pair('one')).toMatchObject({
      matchedBy: 'inputs',
      a: { label: 'Row 2', status: 'succeeded' },
      b: { label: 'Row 3', status: 'succeeded' },
      differs: true,
      failedInOne: false,
    })
    // row-echo writes the row's position: the JSON differs in that field only.
    const fields = pair('one').outputs[0].fields
    expect(pair('one').outputs[0]).toMatchObject({ kind: 'json', same: false })
    expect(fields.filter((f: { state: string }) => f.state !== 'same')).toEqual([
      { path: 'rowIndex', a: '0', b: '1', state: 'changed' },
    ])
    expect(pair('kept')).toMatchObject({ matchedBy: 'inputs', differs: false })
    expect(pair('three')).toMatchObject({ matchedBy: 'alone', b: null, differs: true })
    expect(pair('four')).toMatchObject({ matchedBy: 'alone', a: null, differs: true })
    expect(answer.differing).toBe(4)
  })

  it('writes the comparison as a workbook with -o, and says so', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sr-compare-out-')), 'compare.xlsx')
    const result = await cli(['runs', 'compare', runA, runB, '-o', out])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('3 rows in both, 2 differ; 1 only in A; 1 only in B')
    expect(result.stdout).toContain(`wrote ${out}`)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(out)
    const sheet = book.getWorksheet('Comparison')!
    expect(sheet.getRow(1).getCell(12).value).toBe('Difference')
    const lines = sheet.getSheetValues().slice(2) as unknown[][]
    expect(lines).toHaveLength(5)
    const one = lines.find((l) => String(l[4]).includes('"one"'))!
    expect(one.slice(1, 4)).toEqual(['Row 2', 'Row 3', 'inputs'])
    expect(String(one[12])).toBe('rowIndex: 0 → 1')
  })

  it('needs two runs', async () => {
    const result = await cli(['runs', 'compare', runA])
    expect(result.code).toBe(2)
  })
})
