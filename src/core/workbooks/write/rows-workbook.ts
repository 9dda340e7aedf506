/**
 * A workbook of rows under a schema's own headers: what a listing's service is sent when the
 * user's sheet needed a column mapping, or had rows set aside. The service checks and reads
 * its own headers; the rows are the ones the user confirmed.
 */
import { rename } from 'node:fs/promises'
import type { InputRow, ListingInputSchema } from '../../../shared/contract'
import { loadExcelJs } from '../load-exceljs'
import { SHEETS } from '../sheets'

/** A value as a cell holds it: lists joined the way a multi-value cell is written. */
function cellOf(value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) return null
  if (Array.isArray(value)) return value.map((v) => String(v)).join('; ')
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
    return value
  return JSON.stringify(value)
}

export async function writeRowsWorkbook(
  schema: ListingInputSchema,
  rows: InputRow[],
  outPath: string,
): Promise<void> {
  const ExcelJS = await loadExcelJs()
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet(SHEETS.input)
  const order = new Map(schema.columns.map((c) => [c.fieldKey, c]))
  const fields = schema.fields
    .filter((f) => f.scope !== 'run' || rows.some((r) => r[f.key] !== undefined))
    .sort((a, b) => (order.get(a.key)?.order ?? 1e9) - (order.get(b.key)?.order ?? 1e9))
  sheet.addRow(fields.map((f) => order.get(f.key)?.headerLabel || f.label || f.key))
  for (const row of rows) sheet.addRow(fields.map((f) => cellOf(row[f.key])))
  const partial = `${outPath}.partial`
  await book.xlsx.writeFile(partial)
  await rename(partial, outPath)
}
