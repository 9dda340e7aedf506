// The column mapping every format shares, without any file: rows of cells in, answers out.
import { describe, expect, it } from 'vitest'
import { Collector } from '../../src/core/workbooks/validate/collector'
import { schemaOf } from './support/schemas'
import { coerceCell } from '../../src/shared/input-schema'

const schema = schemaOf('t', 'T', [
  { key: 'name', label: 'Name', type: 'string', required: true },
  { key: 'due', label: 'Due', type: 'date' },
])
const collector = () => new Collector(schema, { bytes: new Uint8Array(), filename: 'x.csv' }, {})

describe('the column mapping', () => {
  it('skips blank rows above the header, maps by label, and keeps spreadsheet row numbers', () => {
    const c = collector()
    c.row([null, '  '], 1)
    c.row([' name * ', 'DUE'], 2)
    c.row(['Ada', new Date(Date.UTC(2026, 2, 5))], 3)
    c.row([null, null], 4)
    c.row(['Bob', '14:30:00'], 5)
    const result = c.finish()
    expect(result.rows).toEqual([{ name: 'Ada', due: '2026-03-05' }, { name: 'Bob' }])
    expect(result.rowNumbers).toEqual([3, 5])
    expect(result.rowErrors).toEqual([
      {
        error: expect.stringMatching(/^Row 5, Due: '14:30:00' is not a date/),
        fieldKey: 'due',
        rowIndex: 1,
      },
    ])
    expect(result.errorCells).toEqual([{ row: 5, column: 2 }])
  })

  it('a date outside the calendar (kept as its number) is a cell problem', () => {
    const c = collector()
    c.row(['Name', 'Due'], 1)
    c.row(['Ada', 99999999], 2)
    const result = c.finish()
    expect(result.fileErrors).toEqual([])
    expect(result.rowErrors[0]?.error).toMatch(/'99999999' is not a date/)
  })

  it('a web address is accepted exactly when the URL parser accepts it, usual shapes or not', () => {
    const url = schemaOf('u', 'U', [{ key: 'site', label: 'Site', type: 'url' }]).fields[0]!
    const addresses = [
      'https://example.com/items/1',
      'HTTP://Example.COM:8080/a?b=c#d',
      'https://a-.b-/%zz\\x?@y',
      'https://ab--cd.com',
      'https://a..b',
      'https://1.2.3.4/x',
      'https://1.2.3.4.5',
      'https://example.123',
      'https://a.0x1',
      'https://xn--zz.com',
      'https://xn--bcher-kva.example',
      'https://a.b:65535',
      'https://a.b:99999',
      'https://exa mple.com',
      'https://[::1]/x',
      'https:example.com',
      'https://',
      'http:',
    ]
    for (const address of addresses) {
      const accepted = coerceCell(url, address).ok
      expect([address, accepted]).toEqual([address, URL.canParse(address)])
    }
  })
})
