// The rows of a results workbook go to a file of JSON lines before the worker writes them out:
// every row comes back as it went, whatever its size or script, across the writes' boundaries.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { spillResultsRows, type PlanRow } from '../../src/core/workbooks/write/results-workbook'

describe('the rows file of a results workbook', () => {
  it('holds every row as one JSON line, past a write of a megabyte and a row longer than one', async () => {
    const rows: PlanRow[] = [
      ...Array.from({ length: 3_000 }, (_, i) => ({
        cells: [i, `row ${i} ✓ 漢字 😀 ${'é'.repeat(i % 500)}`, i % 2 === 0, null],
        ...(i % 7 === 0 ? { badCell: 2 } : {}),
      })),
      // Longer than the buffer the lines are gathered in, in characters of three bytes.
      { cells: ['漢'.repeat(400_000)], linkCells: [1] },
      { cells: [{ text: 'the last', hyperlink: 'https://example.com/a?b=1&c="2"' }] },
    ]
    const path = join(mkdtempSync(join(tmpdir(), 'sr-results-spill-')), 'rows')
    expect(await spillResultsRows(path, rows)).toBe(rows.length)
    const text = readFileSync(path, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    const lines = text.slice(0, -1).split('\n')
    expect(lines.map((line) => JSON.parse(line) as PlanRow)).toEqual(rows)
  })

  it('makes an empty file for no rows', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sr-results-spill-')), 'rows')
    expect(await spillResultsRows(path, [])).toBe(0)
    expect(readFileSync(path, 'utf8')).toBe('')
  })
})
