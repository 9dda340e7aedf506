/**
 * The annotated copy of a checked workbook: every bad cell filled red with its problem as a
 * note, and an Errors sheet listing every problem with a link to its cell, opened first.
 *
 * A workbook of modest size is loaded whole, so the copy keeps everything the user made
 * (formats, widths, dropdowns, other sheets). A large one (or a csv) is copied row by row with
 * the streaming reader and writer, keeping values, so memory stays flat whatever the size.
 * Written to a temporary name and renamed, like every file the app writes.
 */
import { stat, rename, rm } from 'node:fs/promises'
import { extname } from 'node:path'
import ExcelJS from 'exceljs'
import {
  chooseInputSheet,
  columnLetter,
  exceljsSheets,
  inputSheetName,
  isStreamedInputSheet,
  readCsv,
  SHEETS,
  type ReadResult,
} from './read'
import { checkWritableFolder, streamingWorkbook } from './writer'

/** Above this size a workbook is copied by streaming instead of loaded whole. */
const LOAD_WHOLE_MAX_BYTES = 4 * 1024 * 1024

const BAD_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } }
const BAD_FONT: Partial<ExcelJS.Font> = { color: { argb: 'FF9C0006' } }

export type CheckedWorkbook = Pick<ReadResult, 'fileErrors' | 'rowErrors' | 'errorCells'>

export interface AnnotateResult {
  path: string
  /** Cells filled red. */
  markedCells: number
}

/** Problems by spreadsheet row, then by column (problems that belong to no cell left out). */
function groupProblems(checked: CheckedWorkbook) {
  const byRow = new Map<number, Map<number, string[]>>()
  checked.rowErrors.forEach((problem, i) => {
    const cell = checked.errorCells[i]
    if (!cell || cell.column === null) return
    const columns = byRow.get(cell.row) ?? new Map<number, string[]>()
    byRow.set(cell.row, columns)
    columns.set(cell.column, [...(columns.get(cell.column) ?? []), problem.error])
  })
  return byRow
}

function mark(cell: ExcelJS.Cell, problems: string[]) {
  cell.fill = BAD_FILL
  cell.font = { ...(cell.font ?? {}), ...BAD_FONT }
  cell.note = problems.join('\n')
}

/** Fills the Errors sheet: file problems first, then each row problem with a link to its cell. */
function writeErrorsSheet(
  sheet: ExcelJS.Worksheet,
  checked: CheckedWorkbook,
  inputName: string,
  addRow: (values: ExcelJS.CellValue[]) => void,
) {
  sheet.columns = [
    { header: 'Where', width: 12 },
    { header: 'Problem', width: 110 },
  ]
  sheet.getRow(1).font = { bold: true }
  for (const problem of checked.fileErrors) addRow(['File', problem])
  checked.rowErrors.forEach((problem, i) => {
    const cell = checked.errorCells[i]
    if (!cell) return addRow(['', problem.error])
    if (cell.column === null) return addRow([`Row ${cell.row}`, problem.error])
    const address = `${columnLetter(cell.column - 1)}${cell.row}`
    addRow([
      { text: address, hyperlink: `#'${inputName.replace(/'/g, "''")}'!${address}` },
      problem.error,
    ])
  })
  if (checked.fileErrors.length + checked.rowErrors.length === 0) addRow(['', 'No problems found.'])
}

function errorsSheetName(existing: string[]) {
  let name: string = SHEETS.errors
  for (let n = 2; existing.some((e) => e.toLowerCase() === name.toLowerCase()); n += 1)
    name = `${SHEETS.errors} (${n})`
  return name
}

export async function annotateWorkbook(
  sourcePath: string,
  checked: CheckedWorkbook,
  outPath: string,
  options: { loadWholeMaxBytes?: number } = {},
): Promise<AnnotateResult> {
  const loadWholeMax = options.loadWholeMaxBytes ?? LOAD_WHOLE_MAX_BYTES
  await checkWritableFolder(outPath)
  const temp = `${outPath}.${process.pid}.partial`
  try {
    const isCsv = ['.csv', '.txt', '.tsv'].includes(extname(sourcePath).toLowerCase())
    const size = (await stat(sourcePath)).size
    const markedCells =
      !isCsv && size <= loadWholeMax
        ? await annotateWhole(sourcePath, checked, temp)
        : await annotateStreaming(sourcePath, isCsv, checked, temp)
    await rename(temp, outPath)
    return { path: outPath, markedCells }
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

async function annotateWhole(sourcePath: string, checked: CheckedWorkbook, temp: string) {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.readFile(sourcePath)
  const input = chooseInputSheet(workbook.worksheets)
  let marked = 0
  if (input) {
    for (const [row, columns] of groupProblems(checked)) {
      for (const [column, problems] of columns) {
        mark(input.getCell(row, column), problems)
        marked += 1
      }
    }
  }
  const errors = workbook.addWorksheet(errorsSheetName(workbook.worksheets.map((s) => s.name)))
  writeErrorsSheet(errors, checked, input?.name ?? SHEETS.input, (values) => errors.addRow(values))
  const index = workbook.worksheets.indexOf(errors)
  workbook.views = [
    {
      x: 0,
      y: 0,
      width: 20000,
      height: 12000,
      firstSheet: 0,
      activeTab: index,
      visibility: 'visible',
    },
  ]
  await workbook.xlsx.writeFile(temp)
  return marked
}

async function annotateStreaming(
  sourcePath: string,
  isCsv: boolean,
  checked: CheckedWorkbook,
  temp: string,
) {
  const problems = groupProblems(checked)
  const book = streamingWorkbook(temp, { useSharedStrings: false, useStyles: true })
  const writer = book.writer
  const names: string[] = []
  let inputName: string = SHEETS.input
  let marked = 0
  // Each row is written and committed as it is read: nothing accumulates.
  const copyRow = (target: ExcelJS.Worksheet, number: number, values: unknown[], bad: boolean) => {
    const row = target.getRow(number)
    row.values = values.slice(1) as ExcelJS.CellValue[]
    if (number === 1) row.font = { bold: true }
    if (bad) {
      for (const [column, list] of problems.get(number) ?? []) {
        mark(row.getCell(column), list)
        marked += 1
      }
    }
    row.commit()
  }
  if (isCsv) {
    const input = writer.addWorksheet(SHEETS.input)
    names.push(SHEETS.input)
    await readCsv(
      { path: sourcePath },
      { row: (cells, number) => copyRow(input, number, [undefined, ...cells], true) },
    )
    input.commit()
  } else {
    // The same input sheet the check read (it can look at every sheet's name first).
    const wanted = await inputSheetName(sourcePath)
    let inputTaken = false
    for await (const ws of exceljsSheets({ path: sourcePath }, 'ignore')) {
      const name = ws.name ?? `Sheet${names.length + 1}`
      const isInput =
        !inputTaken &&
        (wanted !== null ? name === wanted : isStreamedInputSheet(name, ws.state, inputTaken))
      if (isInput) {
        inputTaken = true
        inputName = name
      }
      const target = writer.addWorksheet(name, {
        state: (ws.state as ExcelJS.WorksheetState | undefined) ?? 'visible',
      })
      names.push(name)
      for await (const row of ws) copyRow(target, row.number, row.values, isInput)
      target.commit()
    }
  }
  // Last in the file (a sheet's data streams out in the order sheets are added), opened first.
  const errors = writer.addWorksheet(errorsSheetName(names))
  let next = 1
  writeErrorsSheet(errors, checked, inputName, (values) => {
    next += 1
    errors.getRow(next).values = values
    errors.getRow(next).commit()
  })
  errors.commit()
  ;(writer as unknown as { views: ExcelJS.WorkbookView[] }).views = [
    {
      x: 0,
      y: 0,
      width: 20000,
      height: 12000,
      firstSheet: 0,
      activeTab: names.length,
      visibility: 'visible',
    },
  ]
  await book.commit()
  return marked
}
