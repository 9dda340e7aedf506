/**
 * The rows a user marked to redo in a results workbook: its "Redo?" column, filled in a
 * spreadsheet program ("x", "yes", anything but a no), read with the row number beside it.
 */
import { EngineError } from '../../errors'
import { loadExcelJs } from '../../workbooks/load-exceljs'

/** The header the results workbook gives the column. */
export const REDO_HEADER = 'Redo?'

const NO = new Set(['', 'no', 'n', 'false', '0', '-'])

function textOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object' && 'result' in value) return textOf(value.result)
  if (typeof value === 'object' && 'text' in value) return textOf(value.text)
  if (typeof value === 'object' && 'richText' in value && Array.isArray(value.richText))
    return value.richText.map((part: { text?: string }) => part.text ?? '').join('')
  return String(value)
}

/** The row numbers marked in the workbook at `path`, which must be the results of `runId`. */
export async function markedForRedo(path: string, runId: string): Promise<number[]> {
  const excel = await loadExcelJs()
  const book = new excel.Workbook()
  try {
    await book.xlsx.readFile(path)
  } catch {
    throw new EngineError(
      'bad-input',
      `“${path}” could not be read as a workbook.`,
      'Give the results workbook of the run (an .xlsx file), with its Redo? column filled in.',
    )
  }
  const about = book.getWorksheet('Run')
  const ofRun = about ? textOf(about.getRow(1).getCell(2).value) : ''
  if (ofRun && ofRun !== runId)
    throw new EngineError(
      'bad-input',
      `This results workbook is of run ${ofRun}, not of run ${runId}.`,
      `Give the results workbook of run ${runId}, or redo rows of run ${ofRun}.`,
    )
  const sheet = book.getWorksheet('Results')
  const headers = sheet ? (sheet.getRow(1).values as unknown[]) : []
  const column = headers.findIndex((h) => textOf(h).trim().toLowerCase() === 'redo?')
  if (!sheet || column < 1)
    throw new EngineError(
      'bad-input',
      'This workbook has no “Redo?” column.',
      'Save the results workbook of the run again (it has one), mark the rows to redo, then try again.',
    )
  const rows: number[] = []
  sheet.eachRow((row, n) => {
    if (n === 1) return
    if (NO.has(textOf(row.getCell(column).value).trim().toLowerCase())) return
    const number = Number(textOf(row.getCell(1).value))
    if (Number.isInteger(number) && number > 0) rows.push(number)
  })
  if (rows.length === 0)
    throw new EngineError(
      'bad-input',
      'No row is marked in the “Redo?” column.',
      'Put an x in the Redo? cell of each row to redo, save the workbook, then try again.',
    )
  return rows
}
