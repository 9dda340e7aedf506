// The input workbook a buyer gets from the New run screen ("Get the input workbook") and fills
// in, as the journeys do it: downloaded through the page, rows written from row 2 of its Input
// sheet with exceljs, saved beside it; and the workbooks a journey writes itself (writeSheet).
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import type { Locator, Page } from 'playwright-core'

export type InputCells = (ExcelJS.CellValue | undefined)[][]

/**
 * Presses the button that downloads a file (named, or found by the caller) and saves what comes
 * as `<folder>/<name>`.
 */
export async function downloadFrom(
  page: Page,
  button: string | Locator,
  folder: string,
  name: string,
): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    (typeof button === 'string' ? page.getByRole('button', { name: button }) : button).click(),
  ])
  const path = join(folder, name)
  await download.saveAs(path)
  return path
}

/**
 * Writes a workbook of one sheet, `sheet`, to `path`: the rows of `head` (headers, a title
 * above them), then `count` rows, `row(1)` to `row(count)`. Answers the path.
 */
export async function writeSheet(
  path: string,
  sheet: string,
  head: ExcelJS.CellValue[][],
  count: number,
  row: (i: number) => ExcelJS.CellValue[],
): Promise<string> {
  const book = new ExcelJS.Workbook()
  const rows = Array.from({ length: count }, (_, k) => row(k + 1))
  book.addWorksheet(sheet).addRows([...head, ...rows])
  await book.xlsx.writeFile(path)
  return path
}

/** The workbook at `path`, read with exceljs. */
export async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  return book
}

/** `blank` with `rows` written from row 2 of its Input sheet (undefined leaves a cell), saved as `out`. */
export async function fillInputWorkbook(blank: string, out: string, rows: InputCells) {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(blank)
  const input = book.getWorksheet('Input')!
  rows.forEach((values, r) =>
    values.forEach((value, c) => {
      if (value !== undefined) input.getCell(r + 2, c + 1).value = value
    }),
  )
  await book.xlsx.writeFile(out)
}

/** The input workbook of the chosen target, downloaded and filled: `<folder>/<name>.xlsx`. */
export async function filledInputWorkbook(
  page: Page,
  folder: string,
  name: string,
  rows: InputCells,
): Promise<string> {
  const blank = await downloadFrom(page, 'Get the input workbook', folder, `${name}-blank.xlsx`)
  const filled = join(folder, `${name}.xlsx`)
  await fillInputWorkbook(blank, filled, rows)
  return filled
}
