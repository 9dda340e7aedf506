// Setting the rows with problems aside as the sheet is read (ReadOptions.setAside): the result
// keeps only the good rows, the workbook to fix gets every bad row with all its problems (more
// than the result would list), and nothing is left on disk when the rows cannot be sent anyway.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { readToFixSheet } from '../helpers/set-aside-book'
import { schemaOf } from './support/schemas'

const dir = mkdtempSync(join(tmpdir(), 'sr-aside-read-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const schema = schemaOf('aside', 'Aside', [
  { key: 'message', label: 'Message', type: 'string', required: true },
  { key: 'count', label: 'Count', type: 'integer' },
])

/** 30 rows; rows 3, 6, 9... have a count that is no number, and row 30 no message either. */
function csv(extraHeader = '') {
  const lines = [`Message,Count${extraHeader}`]
  for (let i = 1; i <= 30; i += 1)
    lines.push(
      `${i === 30 ? '' : `Hello ${i}`},${i % 3 === 0 ? 'many' : i}${extraHeader ? ',' : ''}`,
    )
  return { bytes: Buffer.from(lines.join('\n')), filename: 'rows.csv' }
}

describe('rows with problems set aside as the sheet is read', () => {
  it('keeps the 20 good rows and writes the 10 bad ones with every problem, past the list cap', async () => {
    const path = join(dir, 'to-fix.xlsx')
    const result = await readInputWorkbook(csv(), schema, {
      maxRowErrors: 4,
      setAside: { path, about: [['Set aside from', 'rows.csv']] },
    })
    expect(result.fileErrors).toEqual([])
    expect(result.valid).toBe(true)
    expect(result.setAside).toMatchObject({ path, rows: 10 })
    expect(result.rowCount).toBe(20)
    expect(result.rows).toHaveLength(20)
    expect(result.rowNumbers).not.toContain(4)
    expect(result.rows[0]).toEqual({ message: 'Hello 1', count: 1 })

    const { book, sheet } = await readToFixSheet(path, ['Message', 'Count'])
    expect(sheet.rowCount).toBe(11)
    expect(sheet.getCell('A2').value).toBe('Hello 3')
    expect(sheet.getCell('B2').value).toBe('many')
    expect(sheet.getCell('B2').note).toBeTruthy()
    expect(String(sheet.getCell('C2').value)).toMatch(/Row 4, Count: 'many' is not a whole number/)
    // The last row has two problems, both said.
    expect(String(sheet.getCell('C11').value).split('\n')).toHaveLength(2)
    expect(book.getWorksheet('Set aside')!.state).toBe('hidden')
    expect(existsSync(`${path}.partial`)).toBe(false)

    // Dropped again as it is, both readers read the same 10 rows (the Problem column left out).
    for (const xlsxReader of ['fast', 'exceljs'] as const) {
      const back = await readInputWorkbook({ path }, schema, { xlsxReader })
      expect(back.fileErrors).toEqual([])
      expect(back.rowCount).toBe(10)
      expect(back.rowNumbers).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
      expect(back.rowErrors).toHaveLength(11)
    }
  })

  it('leaves no file and the read as it was when the file itself has a problem', async () => {
    const path = join(dir, 'not-kept.xlsx')
    const plain = await readInputWorkbook(csv(',Message'), schema, {})
    const result = await readInputWorkbook(csv(',Message'), schema, {
      setAside: { path, about: [] },
    })
    expect(result.fileErrors.length).toBeGreaterThan(0)
    expect(result.setAside).toBeUndefined()
    expect(result).toEqual(plain)
    expect(existsSync(path)).toBe(false)
    expect(existsSync(`${path}.partial`)).toBe(false)
  })
})
