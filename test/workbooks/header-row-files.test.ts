// Sheets with a title or a row of numbers above the table, as Excel saves them
// (test/fixtures/header-rows): the header row is the row of text, and the reader says which.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { schemaOf } from './support/schemas'

const fixtures = join(__dirname, '..', 'fixtures', 'header-rows')

/** A template none of whose fields these sheets name, so the reader looks for the header. */
const schema = schemaOf('notes', 'Notes', [
  { key: 'message', label: 'Message', type: 'string', required: true },
])
const read = (name: string) =>
  readInputWorkbook({ path: join(fixtures, name) }, schema, { checkFiles: false })

describe('the header row of a sheet with something above its table', () => {
  it('a bank statement: “Datum | Summe” under a title, not a row of dates and sums', async () => {
    const result = await read('bank_statement_cp1252.csv')
    expect(result.mapping?.headerRow).toBe(3)
    expect(result.mapping?.headers.slice(0, 2)).toEqual(['Datum', 'Summe'])
    expect(result.notices).toContain(
      'Row 3 is taken as the header row: row 1 above it is read as a title or notes, not sent.',
    )
  })

  it('names above a row of column numbers', async () => {
    const result = await read('numbered_columns_utf8bom.csv')
    expect(result.mapping?.headerRow).toBe(1)
    expect(result.mapping?.headers.slice(0, 2)).toEqual(['Name', 'Beschreibung'])
  })

  it('a one-cell title over rows of date-times', async () => {
    const result = await read('title_over_times_utf8bom.csv')
    expect(result.mapping?.headerRow).toBe(1)
    expect(result.mapping?.headers[0]).toBe('Messwerte Juli 2026')
  })
})
