// Reading a workbook honestly (issue #23, item 5): which sheet holds the rows when there are
// several, and what is read past (hidden rows, a total row, empty rows) is said, never sent.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { Collector } from '../../src/core/workbooks/validate/collector'
import { isTotalRow } from '../../src/core/workbooks/validate/row-shape'
import { schemaOf } from './support/schemas'

const schema = schemaOf('t', 'T', [
  { key: 'name', label: 'Name', type: 'string', required: true },
  { key: 'amount', label: 'Amount', type: 'number' },
  { key: 'city', label: 'City', type: 'string' },
])
const dir = mkdtempSync(join(tmpdir(), 'sheet-shape-'))

/** A workbook of sheets, each a list of rows (a row starting with "!hidden" is hidden). */
async function workbook(
  name: string,
  sheets: Record<string, ExcelJS.CellValue[][]>,
): Promise<string> {
  const wb = new ExcelJS.Workbook()
  for (const [sheetName, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(sheetName)
    rows.forEach((cells, i) => {
      const hidden = cells[0] === '!hidden'
      const row = ws.getRow(i + 1)
      row.values = hidden ? cells.slice(1) : cells
      if (hidden) row.hidden = true
    })
  }
  const path = join(dir, name)
  writeFileSync(path, Buffer.from(await wb.xlsx.writeBuffer()))
  return path
}

const READERS = ['fast', 'exceljs'] as const

describe('a workbook with several sheets', () => {
  for (const xlsxReader of READERS)
    it(`reads the sheet whose headers fit the template and says which (${xlsxReader})`, async () => {
      const path = await workbook(`fit-${xlsxReader}.xlsx`, {
        Notes: [['Read me'], ['These are the orders of March']],
        Orders: [
          ['Name', 'Amount', 'City'],
          ['Ada', 3, 'Oslo'],
        ],
      })
      const result = await readInputWorkbook({ path }, schema, { xlsxReader })
      if (xlsxReader === 'exceljs') {
        // exceljs streams sheets without looking ahead: it takes the first, as before.
        expect(result.sheet).toBe('Notes')
        return
      }
      expect(result.fileErrors).toEqual([])
      expect(result.sheet).toBe('Orders')
      expect(result.rows).toEqual([{ name: 'Ada', amount: 3, city: 'Oslo' }])
      expect(result.sheets?.map((s) => [s.name, s.headerRow, s.fit])).toEqual([
        ['Notes', 1, 0],
        ['Orders', 1, 3],
      ])
      expect(result.notices).toContain(
        "Read the sheet “Orders”: of the workbook's 2 sheets, its headers fit the template best.",
      )
    })

  it('finds a header under a title row when it scores the sheets', async () => {
    const path = await workbook('title.xlsx', {
      Summary: [['Name', 'Total']],
      March: [['Orders, March 2026'], [], ['Name', 'Amount', 'City'], ['Ada', 3, 'Oslo']],
    })
    const result = await readInputWorkbook({ path }, schema)
    expect(result.sheet).toBe('March')
    expect(result.sheets?.find((s) => s.name === 'March')).toMatchObject({
      headerRow: 3,
      header: ['Name', 'Amount', 'City'],
      fit: 3,
    })
  })

  it('asks when two sheets fit equally well, and reads the one the user names', async () => {
    const rows = [
      ['Name', 'Amount'],
      ['Ada', 3],
    ]
    const path = await workbook('tie.xlsx', { January: rows, February: [...rows, ['Bob', 4]] })
    const asked = await readInputWorkbook({ path }, schema)
    expect(asked.valid).toBe(false)
    expect(asked.sheetChoices).toEqual(['January', 'February'])
    expect(asked.fileErrors).toEqual([
      "The sheets “January” and “February” fit the template's columns equally well. Choose the sheet that holds the rows to send.",
    ])
    expect(asked.rows).toEqual([])
    for (const xlsxReader of READERS) {
      const chosen = await readInputWorkbook({ path }, schema, { sheet: 'february', xlsxReader })
      expect(chosen.fileErrors).toEqual([])
      expect(chosen.sheet).toBe('February')
      expect(chosen.rows).toEqual([
        { name: 'Ada', amount: 3 },
        { name: 'Bob', amount: 4 },
      ])
      const missing = await readInputWorkbook({ path }, schema, { sheet: 'March', xlsxReader })
      expect(missing.fileErrors).toEqual([
        expect.stringMatching(
          /has no sheet named “March”\. Its sheets are “January” and “February”/,
        ),
      ])
    }
  })

  it('still takes the sheet named Input, and a lone sheet, without a word', async () => {
    const path = await workbook('input.xlsx', {
      Other: [
        ['Name', 'Amount', 'City'],
        ['Zed', 1, 'Rome'],
      ],
      Input: [['Name'], ['Ada']],
    })
    const result = await readInputWorkbook({ path }, schema)
    expect(result.sheet).toBe('Input')
    expect(result.rows).toEqual([{ name: 'Ada' }])
    expect(result.notices ?? []).toEqual([])
  })
})

describe('rows read past are said, not sent', () => {
  it('a hidden row, a trailing total row and empty rows (fast reader)', async () => {
    const path = await workbook('shape.xlsx', {
      Input: [
        ['Name', 'Amount', 'City'],
        ['Ada', 3, 'Oslo'],
        [],
        [],
        ['!hidden', 'Old', 9, 'Paris'],
        ['Bob', 4, 'Rome'],
        [],
        ['Total', 7],
      ],
    })
    const result = await readInputWorkbook({ path }, schema)
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([
      { name: 'Ada', amount: 3, city: 'Oslo' },
      { name: 'Bob', amount: 4, city: 'Rome' },
    ])
    expect(result.rowNumbers).toEqual([2, 6])
    expect(result.hiddenRows).toEqual([5])
    expect(result.totalRow).toBe(8)
    expect(result.emptyRowsSkipped).toBe(3)
    expect(result.notices).toEqual([
      'Row 5 is hidden in the sheet, so it is not sent. Unhide it to send it.',
      'Row 8 is a total (“Total”), not a row to send: it is not sent.',
      '3 empty rows skipped.',
    ])
  })

  it('a total-like row with rows under it is a row like any other', () => {
    const c = new Collector(schema, { bytes: new Uint8Array(), filename: 'x.csv' }, {})
    c.row(['Name', 'Amount'], 1)
    c.row(['Ada', 3], 2)
    c.row(['Total', 3], 3)
    c.row(['Bob', 4], 4)
    const result = c.finish()
    expect(result.rowNumbers).toEqual([2, 3, 4])
    expect(result.totalRow).toBeUndefined()
    expect(result.emptyRowsSkipped).toBeUndefined()
  })

  it('a csv total row (numbers as text) is read past too', () => {
    const c = new Collector(schema, { bytes: new Uint8Array(), filename: 'x.csv' }, {})
    c.row(['Name', 'Amount'], 1)
    c.row(['Ada', '3'], 2)
    c.row(['Grand total:', '1,203.50'], 3)
    c.row([null, null], 4)
    const result = c.finish()
    expect(result.rowNumbers).toEqual([2])
    expect(result.totalRow).toBe(3)
    expect(result.emptyRowsSkipped).toBeUndefined()
  })

  it('tells a total row by its label and its numbers', () => {
    expect(isTotalRow(['Total', 7])).toBe(true)
    expect(isTotalRow([null, 'SUM', 7, null, 8])).toBe(true)
    expect(isTotalRow(['Subtotal', '€ 12.00'])).toBe(true)
    expect(isTotalRow(['Total'])).toBe(false)
    expect(isTotalRow(['Total', 'Oslo'])).toBe(false)
    expect(isTotalRow(['Totally new', 3])).toBe(false)
    expect(isTotalRow(['Ada', 3])).toBe(false)
  })
})
