// Two workbooks read at once in one process: every read keeps its own state (scanner, shared
// strings, styles, row numbers), so interleaved reads give exactly the rows each gives alone.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readInputWorkbook, type ReadResult } from '../../src/core/workbooks'

const dir = mkdtempSync(join(tmpdir(), 'sr-concurrent-'))
const ROWS = 15_000

/**
 * A workbook whose sheet XML spans many chunks. The two differ in every way the reader keeps
 * state for: shared or inline strings, date or time styles, formulas (read from a copy of the
 * row rather than in place), gaps in the row numbers, and the cells' values.
 */
async function write(path: string, variant: 'a' | 'b') {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: variant === 'a',
    useStyles: true,
  })
  const sheet = writer.addWorksheet(variant === 'a' ? 'Input' : 'Orders')
  sheet.addRow(['Name', 'Count', 'When', 'Amount', 'Note']).commit()
  for (let i = 0; i < ROWS; i += 1) {
    const row = sheet.addRow([
      `${variant}-name-${i}`,
      variant === 'a' ? i : -i * 3,
      variant === 'a' ? new Date(Date.UTC(2026, i % 12, (i % 28) + 1)) : (i % 1440) / 1440,
      variant === 'a' ? i * 1.5 : i / 7,
      i % 7 === 0
        ? { formula: `"${variant}"&"${i}"`, result: `${variant}${i}` }
        : `note ${variant} ${i}`,
    ])
    row.getCell(3).numFmt = variant === 'a' ? 'yyyy-mm-dd' : 'hh:mm'
    row.commit()
    // Gaps: a blank row keeps its number, so the next row's number is read, not counted.
    if (variant === 'b' && i % 1000 === 999) sheet.addRow([]).commit()
  }
  sheet.commit()
  await writer.commit()
}

describe('two reads at once', () => {
  it('give exactly the rows each read gives alone', { timeout: 120_000 }, async () => {
    const pathA = join(dir, 'a.xlsx')
    const pathB = join(dir, 'b.xlsx')
    await Promise.all([write(pathA, 'a'), write(pathB, 'b')])
    const alone = [
      await readInputWorkbook({ path: pathA }, null),
      await readInputWorkbook({ path: pathB }, null),
    ]
    expect(alone[0]!.rowCount).toBe(ROWS)
    expect(alone[1]!.rowCount).toBe(ROWS)
    expect(alone[0]!.rows).not.toEqual(alone[1]!.rows)

    // Which read made progress, in order: proof that the two really were interleaved.
    const progress: string[] = []
    const together: ReadResult[] = await Promise.all(
      (['a', 'b'] as const).map((name, i) =>
        readInputWorkbook({ path: [pathA, pathB][i]! }, null, {
          onProgress: () => progress.push(name),
        }),
      ),
    )
    const switches = progress.filter((name, i) => i > 0 && name !== progress[i - 1]).length
    expect(switches).toBeGreaterThan(1)
    expect(together[0]).toEqual(alone[0])
    expect(together[1]).toEqual(alone[1])
  })
})
