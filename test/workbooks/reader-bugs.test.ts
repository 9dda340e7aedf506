// Files from other spreadsheet programs that the reader once read wrong (issue #19, item 3):
// each is a fixture in test/fixtures/reader-bugs (made by make.py there), read by the fast
// reader and by exceljs's (the fallback), and by the sandbox's own reader.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ListingInputSchema } from '../../src/shared/contract'
import { readInputWorkbook } from '../../src/core/workbooks'
import { checkWorkbook } from '../../src/sandbox/workbooks/check-workbook'
import { withIsoDatesAsSerials } from '../../src/sandbox/workbooks/iso-dates'
import { makeXlsx } from './support/zip'

const dir = join(import.meta.dirname, '..', 'fixtures', 'reader-bugs')
const READERS = ['fast', 'exceljs'] as const
const read = (name: string, xlsxReader: (typeof READERS)[number]) =>
  readInputWorkbook({ path: join(dir, name) }, null, { xlsxReader })

const schema = (...keys: string[]): ListingInputSchema =>
  ({
    columns: keys.map((key) => ({ fieldKey: key, headerLabel: key })),
    fields: keys.map((key) => ({ key, label: key, type: 'text', required: false, scope: 'row' })),
  }) as unknown as ListingInputSchema
const sandboxCheck = (name: string, s: ListingInputSchema) =>
  checkWorkbook(readFileSync(join(dir, name)), name, s)

describe('an empty shared-string cell (<v/>, <v></v>) is blank, not the first string', () => {
  for (const reader of READERS)
    it(reader, async () => {
      const result = await read('empty_shared_string.xlsx', reader)
      expect(result.fileErrors).toEqual([])
      expect(result.rows).toEqual([{ Message: 'first' }, { Message: 'second' }])
    })

  it('sandbox', async () => {
    const result = await sandboxCheck('empty_shared_string.xlsx', {
      ...schema('Message', 'Note'),
      fields: [
        { key: 'Message', label: 'Message', type: 'text', required: false, scope: 'row' },
        { key: 'Note', label: 'Note', type: 'text', required: true, scope: 'row' },
      ],
    } as unknown as ListingInputSchema)
    // Row 2 and row 3 leave the required Note blank: read as "Message" they would pass.
    expect(result.rowErrors.map((e) => [e.fieldKey, e.rowIndex])).toEqual([
      ['Note', 0],
      ['Note', 1],
    ])
  })
})

describe('a zip that holds no worksheet is said to be no spreadsheet, not to lack a header', () => {
  for (const file of ['zip_without_sheet.xlsx', 'workbook_without_sheet.xlsx'])
    for (const reader of READERS)
      it(`${file}, ${reader}`, async () => {
        const result = await read(file, reader)
        expect(result.unreadable).toBe(true)
        expect(result.fileErrors).toEqual([
          expect.stringMatching(new RegExp(`^“${file}” is not a spreadsheet with a sheet in it`)),
        ])
        expect(result.fileErrors.join(' ')).not.toMatch(/header/)
      })

  for (const file of ['zip_without_sheet.xlsx', 'workbook_without_sheet.xlsx'])
    it(`${file}, sandbox`, async () => {
      const result = await sandboxCheck(file, schema('Message'))
      expect(result.fileErrors).toHaveLength(1)
      expect(result.fileErrors[0]).toMatch(/not (a spreadsheet|an Excel workbook)/)
      expect(result.fileErrors[0]).not.toMatch(/header/)
    })
})

describe('a Strict workbook reads as the same file saved as transitional', () => {
  it('reads the Strict namespaces, and a date-styled header is its day, as in transitional', async () => {
    const strict = await read('strict_date_header.xlsx', 'fast')
    const transitional = await read('transitional_date_header.xlsx', 'fast')
    for (const result of [strict, transitional]) {
      expect(result.fileErrors).toEqual([])
      expect(result.rows[0]).toMatchObject({ Message: 'hello', '2009-01-01': '2024-03-05' })
      expect(Object.keys(result.rows[0]!)).toContain('2009-01-02')
    }
  })

  it('exceljs (the fallback) reads the transitional file the same way', async () => {
    const result = await read('transitional_date_header.xlsx', 'exceljs')
    expect(result.rows[0]).toMatchObject({ Message: 'hello', '2009-01-01': '2024-03-05' })
  })

  it('the Strict file, its ISO cells made serials, reads in exceljs as the transitional one', async () => {
    const strict = readFileSync(join(dir, 'strict_date_header.xlsx'))
    const result = await readInputWorkbook(
      { bytes: Buffer.from(withIsoDatesAsSerials(strict)), filename: 'strict.xlsx' },
      null,
      { xlsxReader: 'exceljs' },
    )
    expect(result.fileErrors).toEqual([])
    expect(result.rows[0]).toMatchObject({ Message: 'hello', '2009-01-01': '2024-03-05' })
  })

  it('the sandbox names the date header by its day in both files', async () => {
    for (const file of ['transitional_date_header.xlsx', 'strict_date_header.xlsx']) {
      const result = await sandboxCheck(file, schema('Message', '2009-01-01', '2009-01-02'))
      expect({ file, errors: result.fileErrors }).toEqual({ file, errors: [] })
    }
  })
})

describe('exceljs (the fallback) and ISO date cells', () => {
  it('refuses a Strict workbook with ISO dates rather than reading 2009-01-01 as 1905', async () => {
    const result = await read('strict_date_header.xlsx', 'exceljs')
    expect(result.unreadable).toBe(true)
    expect(result.fileErrors).toEqual([expect.stringMatching(/dates as ISO text.*not Strict/)])
  })
})

describe('the sandbox reads ISO date cells as dates, whatever the style', () => {
  const strictBook = (rows: string) =>
    makeXlsx({
      sheet: `<row r="1"><c r="A1" t="inlineStr"><is><t>Due</t></is></c><c r="B1" t="inlineStr"><is><t>At</t></is></c></row>${rows}`,
      styles: { xfs: [0, 14, 22] },
    })
  const dates = {
    columns: [
      { fieldKey: 'due', headerLabel: 'Due' },
      { fieldKey: 'at', headerLabel: 'At' },
    ],
    fields: [
      { key: 'due', label: 'Due', type: 'date', required: true, scope: 'row' },
      { key: 'at', label: 'At', type: 'string', required: false, scope: 'row' },
    ],
  } as unknown as ListingInputSchema

  it('a date, a date and time, a time of day; text that is no date stays text', async () => {
    const bytes = strictBook(
      `<row r="2"><c r="A2" s="1" t="d"><v>2024-03-05T09:30:00</v></c><c r="B2" t="d"><v>10:15:00</v></c></row>` +
        `<row r="3"><c r="A3" s="2" t="d"><v>2024-03-06</v></c><c r="B3" t="d"/></row>` +
        `<row r="4"><c r="A4" s="1" t="d"><v>soon</v></c></row>`,
    )
    // The rewritten package, read by exceljs as the app's fallback reads it (it refuses ISO
    // date cells, so this reads only if none is left): each ISO value is now its serial number
    // (this package's bare styles show them as numbers), text that is no date stays text.
    const rewritten = await readInputWorkbook(
      { bytes: Buffer.from(withIsoDatesAsSerials(bytes)), filename: 'rewritten.xlsx' },
      null,
      { xlsxReader: 'exceljs' },
    )
    expect(rewritten.fileErrors).toEqual([])
    expect(rewritten.rows).toHaveLength(3)
    expect(rewritten.rows[0]!.Due).toBeCloseTo(45356 + (9 * 60 + 30) / 1440, 9)
    expect(rewritten.rows[0]!.At).toBeCloseTo((10 * 60 + 15) / 1440, 9)
    expect(rewritten.rows[1]).toEqual({ Due: 45357 })
    expect(rewritten.rows[2]).toEqual({ Due: 'soon' })
    const result = await checkWorkbook(bytes, 'strict.xlsx', dates)
    expect(result.fileErrors).toEqual([])
    // Rows 2 and 3 are dates; row 4's "soon" is read as the text it is, and is no date.
    expect(result.rowErrors.map((e) => [e.fieldKey, e.rowIndex])).toEqual([['due', 2]])
    expect(result.rowErrors[0]!.error).toMatch(/soon/)
  })
})
