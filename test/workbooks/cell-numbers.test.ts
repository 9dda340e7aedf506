// The sheet reader's own readings of the usual cells (decimals from their digits, hidden rows
// found by one search a chunk) answer exactly as the general way does.
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { makeXlsx } from './support/zip'

const read = (sheet: string, sharedStrings = ['A']) =>
  readInputWorkbook({ bytes: makeXlsx({ sheet, sharedStrings }), filename: 'n.xlsx' }, null)
const header = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'

describe('number cells read from their digits', () => {
  it('reads every decimal as Number does, and leaves other texts to it', async () => {
    const texts = [
      '1.25',
      '-0.5',
      '0.1',
      '0.7',
      '123456789.12345',
      '99999.999999999',
      '0.30000000000000004',
      '1e5',
      '007.50',
      '-.5',
      '5.',
      '-0.0',
      '1.2.3',
      ' 2.5 ',
    ]
    const rows = texts
      .map((t, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${t}</v></c></row>`)
      .join('')
    const result = await read(header + rows)
    expect(result.fileErrors).toEqual([])
    const expected = texts.map((t) => {
      const n = Number(t)
      return { A: t.trim() === '' || Number.isNaN(n) ? t : n }
    })
    expect(result.rows.map((row) => ({ A: Object.is(row.A, -0) ? 'minus zero' : row.A }))).toEqual(
      expected.map((row) => ({ A: Object.is(row.A, -0) ? 'minus zero' : row.A })),
    )
  })

  it('finds hidden rows among many read in place, and only those', async () => {
    const rows = Array.from({ length: 199 }, (_, i) => {
      const r = i + 2
      const hidden = r === 50 ? ' hidden="1"' : r === 150 ? ' spans="1:1" hidden="true"' : ''
      const shown = r === 100 ? ' customHeight="1" x14ac:dyDescent="0.25"' : ''
      return `<row r="${r}"${hidden}${shown}><c r="A${r}"><v>${r}</v></c></row>`
    }).join('')
    const result = await read(header + rows)
    expect(result.hiddenRows).toEqual([50, 150])
    expect(result.rowCount).toBe(197)
  })
})
