// One row numbering everywhere (DESIGN.md, "Row numbers").
import { describe, expect, it } from 'vitest'
import { rowNumberingOf } from '../../src/core/flows/spend/submissions'
import {
  SUBMITTED_ROWS,
  rowColumnHeader,
  rowFolderName,
  rowLabel,
  rowNumberOf,
  sheetRowsText,
  spreadsheetRows,
} from '../../src/shared/format'

it('names rows from a workbook by their sheet row, others by their submitted position', () => {
  const sheet = spreadsheetRows([2, 3, 6])
  expect(rowLabel(sheet, 2)).toBe('Row 6')
  expect(rowNumberOf(sheet, 2)).toBe(6)
  expect(rowColumnHeader(sheet)).toBe('Sheet row')
  expect(rowFolderName(sheet, 2, 3)).toBe('row-006')
  expect(rowLabel(SUBMITTED_ROWS, 4)).toBe('Submitted row 5')
  expect(rowLabel(SUBMITTED_ROWS, 4, true)).toBe('submitted row 5')
  expect(rowColumnHeader(null)).toBe('Submitted row')
  expect(rowFolderName(null, 4, 1200)).toBe('row-0005')
  expect(rowFolderName(null, -1, 3)).toBe('run')
})

it('knows a submission’s numbering from what it kept', () => {
  const base = { rowNumbers: [] as number[] }
  expect(rowNumberingOf(null)).toBeNull()
  expect(rowNumberingOf({ ...base } as never)).toEqual(SUBMITTED_ROWS)
  expect(rowNumberingOf({ rowNumbers: [2, 5] } as never)?.source).toBe('spreadsheet')
})

describe('sheetRowsText', () => {
  it('names rows as the sheet has them, gaps included', () => {
    expect(sheetRowsText([])).toBe('')
    expect(sheetRowsText([5])).toBe('row 5')
    expect(sheetRowsText([2, 3, 4])).toBe('rows 2 to 4')
    // A redo of rows 2 and 4 is not "rows 2 to 4".
    expect(sheetRowsText([2, 4])).toBe('rows 2 and 4')
    expect(sheetRowsText([2, 4, 7])).toBe('rows 2, 4 and 7')
    const many = Array.from({ length: 50 }, (_, i) => i + 4).filter((n) => n !== 20)
    expect(sheetRowsText(many)).toBe('rows between 4 and 53')
  })
})
