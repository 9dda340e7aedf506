/**
 * Test helper: the workbook of rows set aside to fix, as the user opens it. Its "To fix" sheet
 * holds the rows' own columns and then the Problem column the app adds, and after it the hidden
 * Sheet row column; every test that reads one checks that head first.
 */
import ExcelJS from 'exceljs'
import { expect } from 'vitest'

/** Reads the set-aside workbook at `path`, checks the head of "To fix", returns both. */
export async function readToFixSheet(
  path: string,
  columns: string[],
): Promise<{ book: ExcelJS.Workbook; sheet: ExcelJS.Worksheet }> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  const sheet = book.getWorksheet('To fix')!
  expect(sheet.getRow(1).values).toEqual([
    undefined,
    ...columns,
    'Problem (Skill Runner)',
    'Sheet row (Skill Runner)',
  ])
  expect(sheet.getColumn(columns.length + 2).hidden).toBe(true)
  return { book, sheet }
}
