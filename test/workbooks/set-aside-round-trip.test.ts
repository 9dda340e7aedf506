// The workbook of rows to fix, there and back: its cells keep the type they were read with
// (numbers, dates, yes/no, text that only looks like a number), each row's row in the buyer's own
// sheet rides in a hidden column, and a fixed workbook dropped again gives those rows back as
// `sourceRows` while that column is never taken for one of the buyer's, by either reader.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, describe, expect, it } from 'vitest'
import { linkSetAsideToRun, parseInputWorkbook, readInputWorkbook } from '../../src/core/workbooks'
import { SetAsideWriter } from '../../src/core/workbooks/write/set-aside'
import { readToFixSheet } from '../helpers/set-aside-book'
import { schemaOf } from './support/schemas'

const dir = mkdtempSync(join(tmpdir(), 'sr-aside-trip-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const schema = schemaOf('products', 'Products', [
  { key: 'name', label: 'Name', type: 'string', required: true },
  { key: 'price', label: 'Price', type: 'number' },
  { key: 'launch', label: 'Launch', type: 'date' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'code', label: 'Code', type: 'string' },
  { key: 'stock', label: 'Stock', type: 'integer' },
])
const COLUMNS = ['Name', 'Price', 'Launch', 'Active', 'Code', 'Stock']
const READERS = ['fast', 'exceljs'] as const

/**
 * The buyer's own sheet: a title on row 1, the header on row 2, 12 products on rows 3 to 14.
 * Rows 5 and 11 have a stock that is no whole number, row 11 no name either.
 */
async function ownSheet(): Promise<string> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Products')
  sheet.addRow(['Spring catalogue'])
  sheet.addRow(COLUMNS)
  for (let i = 1; i <= 12; i += 1) {
    const row = 2 + i
    sheet.addRow([
      row === 11 ? null : `Lamp ${i}`,
      i + 0.5,
      new Date(Date.UTC(2026, 2, i)),
      i % 2 === 0,
      `00${i}`,
      row === 5 || row === 11 ? 'plenty' : i * 10,
    ])
  }
  sheet.getColumn(3).numFmt = 'yyyy-mm-dd'
  const path = join(dir, 'products.xlsx')
  await book.xlsx.writeFile(path)
  return path
}

async function setAside(from: string, name: string) {
  const path = join(dir, name)
  const result = await readInputWorkbook({ path: from }, schema, {
    setAside: { path, about: [['Set aside from', from]] },
  })
  return { path, result }
}

describe('the workbook of rows to fix keeps its cells and the sheet rows', () => {
  it('writes numbers, dates and yes/no as such, and each row’s sheet row in a hidden column', async () => {
    const { path, result } = await setAside(await ownSheet(), 'to-fix.xlsx')
    expect(result.setAside).toMatchObject({ path, rows: 2 })
    expect(result.rowNumbers).toHaveLength(10)
    // The buyer's own sheet has no hidden column: no source rows to give.
    expect(result.sourceRows).toBeUndefined()

    const { sheet } = await readToFixSheet(path, COLUMNS)
    expect(sheet.rowCount).toBe(3)
    const first = sheet.getRow(2)
    expect(first.getCell(1).value).toBe('Lamp 3')
    expect(first.getCell(2).value).toBe(3.5)
    expect(first.getCell(3).value).toEqual(new Date(Date.UTC(2026, 2, 3)))
    expect(first.getCell(3).numFmt).toBeTruthy()
    expect(first.getCell(4).value).toBe(false)
    // Text stays text, leading zeros and all.
    expect(first.getCell(5).value).toBe('003')
    expect(first.getCell(6).value).toBe('plenty')
    expect(first.getCell(6).note).toBeTruthy()
    expect((first.getCell(6).fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFDE2E1')
    expect(first.getCell(2).note).toBeUndefined()
    // The second row's missing name is marked too, and the column after Problem is its sheet row.
    expect(sheet.getRow(3).getCell(1).note).toBeTruthy()
    expect([first.getCell(8).value, sheet.getRow(3).getCell(8).value]).toEqual([5, 11])
  })

  it('writes a csv’s numbers as numbers in the columns that take one, and leaves other text be', async () => {
    // Rows 2 to 4 have problems (a stock that is no whole number, no name); row 5 is good.
    const text = [
      'Name,Price,Code,Stock',
      'Lamp,9.5,12,lots',
      'Desk,9.50,007,1e3',
      ',1000,42,7',
    ].join('\n')
    const path = join(dir, 'from-csv.xlsx')
    const all = await readInputWorkbook(
      { bytes: Buffer.from(`${text}\nChair,3,1,1`), filename: 'products.csv' },
      schema,
      { setAside: { path, about: [] } },
    )
    expect(all.setAside).toMatchObject({ path, rows: 3 })
    const { sheet } = await readToFixSheet(path, ['Name', 'Price', 'Code', 'Stock'])
    const values = [2, 3, 4].map((r) => [2, 3, 4].map((c) => sheet.getRow(r).getCell(c).value))
    expect(values).toEqual([
      [9.5, '12', 'lots'],
      ['9.50', '007', '1e3'],
      [1000, '42', 7],
    ])
    expect([2, 3, 4].map((r) => sheet.getRow(r).getCell(6).value)).toEqual([2, 3, 4])
  })

  it('reads a fixed workbook back with the rows of the buyer’s sheet, the hidden column no field', async () => {
    const { path } = await setAside(await ownSheet(), 'to-fix-back.xlsx')
    // As the app does once the other rows are sent: the workbook goes through exceljs.
    await linkSetAsideToRun(path, 'run-1')
    for (const xlsxReader of READERS) {
      const back = await readInputWorkbook({ path }, schema, { xlsxReader, keepCells: true })
      expect(back.fileErrors).toEqual([])
      // Shown as the user's own columns only: the two the workbook adds at its end are not.
      expect(back.headers).toEqual(COLUMNS)
      expect(back.columnFields).toHaveLength(COLUMNS.length)
      expect(back.cells?.[0]).toEqual(['Lamp 3', '3.5', '2026-03-03', 'false', '003', 'plenty'])
      expect(back.mapping?.source).toBe('exact')
      expect(back.rowNumbers).toEqual([2, 3])
      expect(back.sourceRows).toEqual([5, 11])
      // Still to fix: named by the rows the buyer sees in To fix.
      expect(back.rowErrors.map((e) => e.error.slice(0, 6))).toEqual(['Row 2,', 'Row 3,', 'Row 3,'])
    }

    const { book, sheet } = await readToFixSheet(path, COLUMNS)
    sheet.getCell('F2').value = 30
    sheet.getCell('A3').value = 'Lamp 9'
    sheet.getCell('F3').value = 90
    await book.xlsx.writeFile(path)
    for (const xlsxReader of READERS) {
      const fixed = await readInputWorkbook({ path }, schema, { xlsxReader })
      expect(fixed.valid).toBe(true)
      expect(fixed.sourceRows).toEqual([5, 11])
      expect(fixed.rows[0]).toEqual({
        name: 'Lamp 3',
        price: 3.5,
        launch: '2026-03-03',
        active: false,
        code: '003',
        stock: 30,
      })
      expect(fixed.rows[1]).toMatchObject({ name: 'Lamp 9', price: 9.5, active: false, stock: 90 })
    }
    // The same from the worker thread the app reads in.
    expect((await parseInputWorkbook({ path }, schema)).sourceRows).toEqual([5, 11])
  })

  it('sets a row aside again under its first sheet row, without the added columns twice', async () => {
    const { path } = await setAside(await ownSheet(), 'to-fix-once.xlsx')
    const { book, sheet } = await readToFixSheet(path, COLUMNS)
    sheet.getCell('F2').value = 30
    await book.xlsx.writeFile(path)

    const again = await setAside(path, 'to-fix-twice.xlsx')
    expect(again.result.setAside).toMatchObject({ path: again.path, rows: 1 })
    expect(again.result.rowNumbers).toEqual([2])
    expect(again.result.sourceRows).toEqual([5])
    const twice = await readToFixSheet(again.path, COLUMNS)
    expect(twice.sheet.getRow(2).getCell(2).value).toBe(9.5)
    expect(twice.sheet.getRow(2).getCell(8).value).toBe(11)
  })

  it('gives the column to no field and proposes nothing for it, under the buyer’s own headers', async () => {
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('To fix')
    sheet.addRow(['Product', 'Cost', 'Problem (Skill Runner)', 'Sheet row (Skill Runner)'])
    sheet.addRow(['Lamp', 4, 'Row 7, Name: is required but empty', 7])
    const path = join(dir, 'renamed.xlsx')
    await book.xlsx.writeFile(path)
    const read = await readInputWorkbook({ path }, schema, {})
    expect(read.mapping?.source).toBe('proposed')
    expect(read.mapping?.proposal?.columns.map((c) => c.header)).toEqual(['Product', 'Cost'])
    expect(read.fileErrors.join(' ')).not.toContain('Skill Runner')
  })
})

describe('dates at the edges of the spreadsheet calendar', () => {
  it('keeps days, times and the days before March 1900; a date no sheet holds stays text', async () => {
    const path = join(dir, 'dates.xlsx')
    const writer = await SetAsideWriter.open({ path, about: [] })
    writer.header(['When'])
    const values = [
      new Date(Date.UTC(2026, 10, 28, 14, 30, 15)),
      new Date(Date.UTC(1900, 0, 15)),
      new Date(Date.UTC(1900, 2, 1)),
      new Date(Date.UTC(1899, 11, 31)),
      new Date(Date.UTC(10000, 0, 1)),
      new Date(Number.NaN),
    ]
    values.forEach((value, i) =>
      writer.row({
        rowNumber: i + 2,
        sheetRow: i + 2,
        cells: [value],
        problems: [],
        badColumns: [],
      }),
    )
    await writer.close()
    // Without a template every cell is read as the text it shows.
    const read = await readInputWorkbook({ path }, null, {})
    expect(read.rows.map((row) => row['When'] ?? null)).toEqual([
      '2026-11-28T14:30:15',
      '1900-01-15',
      '1900-03-01',
      '1899-12-31',
      expect.stringMatching(/^\+010000-01/),
      null,
    ])
    expect(read.sourceRows).toEqual([2, 3, 4, 5, 6, 7])
  })
})

describe('the hidden column is read as hostile', () => {
  /** A fixed workbook whose Sheet row column holds `values`, one row each. */
  async function workbookWith(values: ExcelJS.CellValue[]): Promise<string> {
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('To fix')
    sheet.addRow(['Name', 'Problem (Skill Runner)', 'Sheet row (Skill Runner)'])
    values.forEach((value, i) => sheet.addRow([`Lamp ${i}`, null, value]))
    const path = join(dir, `hostile-${values.length}.xlsx`)
    await book.xlsx.writeFile(path)
    return path
  }

  it('keeps a whole number from 2 once, and 0 for anything else', async () => {
    const values = [7, 'x', 1, 2.5, -3, 7, ' 12 ', 2_000_000, null, true, 1_048_576, '1e3']
    const path = await workbookWith(values)
    for (const xlsxReader of READERS) {
      const read = await readInputWorkbook({ path }, schema, { xlsxReader })
      expect(read.fileErrors).toEqual([])
      expect(read.rowNumbers).toEqual(values.map((_, i) => i + 2))
      expect(read.sourceRows).toEqual([7, 0, 0, 0, 0, 0, 12, 0, 0, 0, 1_048_576, 0])
    }
  })

  it('knows no sheet row in a set-aside workbook without the column', async () => {
    // One made before the column was, or the column deleted: its own rows are not the user's.
    const text = 'Name,Problem (Skill Runner)\nLamp,Row 9: no price\nDesk,\n'
    const read = await readInputWorkbook(
      { bytes: Buffer.from(text), filename: 'old.csv' },
      schema,
      {},
    )
    expect(read.fileErrors).toEqual([])
    expect(read.rowNumbers).toEqual([2, 3])
    expect(read.sourceRows).toEqual([0, 0])
  })

  it('reads the column from a workbook saved again as csv', async () => {
    const text =
      'Name,Problem (Skill Runner),Sheet row (Skill Runner)\nLamp,,9\nDesk,,9\nChair,,4\n'
    const read = await readInputWorkbook(
      { bytes: Buffer.from(text), filename: 'to fix.csv' },
      schema,
      {},
    )
    expect(read.fileErrors).toEqual([])
    expect(read.sourceRows).toEqual([9, 0, 4])
  })
})
