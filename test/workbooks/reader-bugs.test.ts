// Files from other spreadsheet programs that the reader once read wrong (issue #19, item 3):
// each is a fixture in test/fixtures/reader-bugs (made by make.py there), read by the fast
// reader and by exceljs's (the fallback), and by the sandbox's own reader.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ListingInputSchema } from '../../src/shared/contract'
import { readInputWorkbook } from '../../src/core/workbooks'
import { checkWorkbook } from '../../src/sandbox/workbooks/check-workbook'

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
