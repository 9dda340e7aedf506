// One row numbering everywhere (DESIGN.md, "Row numbers").
import { expect, it } from 'vitest'
import { rowNumberingOf } from '../../src/core/flows/spend/submissions'
import {
  SUBMITTED_ROWS,
  rowColumnHeader,
  rowFolderName,
  rowLabel,
  rowNumberOf,
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
