/**
 * The annotated copy of a checked workbook: every bad cell filled red with its problem as a
 * note, and an Errors sheet listing every problem with a link to its cell, opened first.
 *
 * A workbook of modest size is loaded whole, so the copy keeps everything the user made
 * (formats, widths, dropdowns, other sheets), but only after every part of it was unpacked and
 * every sheet scanned within the readers' limits (exceljs itself has none). A large one (or a
 * csv, or one exceljs cannot load) is copied row by row by our own readers into the streaming
 * writer, keeping values, so memory stays flat whatever the size. Runs in the worker (worker/);
 * a file that could not be read is refused with a message. Written to a temporary name and
 * renamed, like every file the app writes.
 */
import { rename, rm } from 'node:fs/promises'
import { extname } from 'node:path'
import type ExcelJS from 'exceljs'
import type { CellValue } from '../../../shared/input-schema'
import { EngineError } from '../../errors'
import { baseName, isZip, openByteSource, type ByteSource } from '../byte-source'
import { MAX_SMALL_PART_BYTES, RESAVE } from '../limits'
import { loadExcelJs } from '../load-exceljs'
import { readCsvBytes } from '../read/csv/read-csv'
import { verifyZip } from '../read/xlsx/exceljs-reader'
import { openXlsxZip } from '../read/xlsx/workbook'
import { openZip } from '../read/xlsx/zip'
import { chooseInputSheet, columnLetter, SHEETS } from '../sheets'
import type { ReadResult } from '../validate/read-result'
import { checkWritableFolder, streamingWorkbook } from './streaming-writer'

/** Above this size a workbook is copied by streaming instead of loaded whole. */
const LOAD_WHOLE_MAX_BYTES = 4 * 1024 * 1024

const BAD_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } }
const BAD_FONT: Partial<ExcelJS.Font> = { color: { argb: 'FF9C0006' } }

export type CheckedWorkbook = Pick<
  ReadResult,
  'fileErrors' | 'rowErrors' | 'errorCells' | 'unreadable' | 'sheet'
>

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

/** Writes the annotated copy on this thread (the worker calls this; see worker/client.ts). */
export async function annotateHere(
  sourcePath: string,
  checked: CheckedWorkbook,
  outPath: string,
  options: { loadWholeMaxBytes?: number } = {},
): Promise<AnnotateResult> {
  if (checked.unreadable)
    throw new EngineError(
      'refused',
      `No annotated copy was written: “${baseName(sourcePath)}” could not be read, so there are no cells to mark.`,
      'Fix the problem with the file shown above, then check it again.',
    )
  const loadWholeMax = options.loadWholeMaxBytes ?? LOAD_WHOLE_MAX_BYTES
  await checkWritableFolder(outPath)
  const temp = `${outPath}.${process.pid}.partial`
  const bytes = await openByteSource({ path: sourcePath }).catch((error: Error) => {
    throw new EngineError('refused', error.message, 'Check the file and try again.')
  })
  try {
    const head = await bytes.readAt(0, 4)
    const isCsv =
      !isZip(head) && ['.csv', '.txt', '.tsv', '.tab'].includes(extname(sourcePath).toLowerCase())
    let markedCells: number | null = null
    if (!isCsv && bytes.size <= loadWholeMax && (await safeToLoadWhole(bytes, sourcePath)))
      markedCells = await annotateWhole(sourcePath, checked, temp).catch(() => null)
    markedCells ??= await annotateStreaming(bytes, sourcePath, isCsv, checked, temp)
    await rename(temp, outPath)
    return { path: outPath, markedCells }
  } catch (error) {
    await rm(temp, { force: true })
    if (error instanceof EngineError) throw error
    if (error instanceof Error && error.name === 'WorkbookFileError')
      throw new EngineError('refused', `No annotated copy was written: ${error.message}`, RESAVE)
    throw error
  } finally {
    await bytes.close()
  }
}

/**
 * Whether exceljs may load the file whole: every zip entry unpacks within a small total and every
 * worksheet's cells lie within the sheet limits (exceljs would allocate for any reference).
 */
async function safeToLoadWhole(bytes: ByteSource, sourcePath: string): Promise<boolean> {
  try {
    const zip = await openZip(bytes)
    await verifyZip(zip, 4 * MAX_SMALL_PART_BYTES)
    const book = await openXlsxZip(zip, baseName(sourcePath))
    try {
      for (const sheet of book.sheets)
        if (sheet.kind === 'worksheet') await book.rows(sheet, () => {})
    } finally {
      await book.close()
    }
    return true
  } catch {
    return false
  }
}

async function annotateWhole(sourcePath: string, checked: CheckedWorkbook, temp: string) {
  const excel = await loadExcelJs()
  const workbook = new excel.Workbook()
  await workbook.xlsx.readFile(sourcePath)
  const input = chooseInputSheet(workbook.worksheets, checked.sheet)
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
  workbook.views = opensOn(index)
  await workbook.xlsx.writeFile(temp)
  return marked
}

/** The views of a workbook that opens on the sheet at `activeTab` (the Errors sheet). */
function opensOn(activeTab: number): ExcelJS.WorkbookView[] {
  return [
    { x: 0, y: 0, width: 20000, height: 12000, firstSheet: 0, activeTab, visibility: 'visible' },
  ]
}

/** Copies rows into a streaming writer, marking the bad cells of the input sheet's rows. */
class RowCopier {
  marked = 0
  constructor(private readonly problems: Map<number, Map<number, string[]>>) {}

  // Each row is written and committed as it is read: nothing accumulates.
  copy(target: ExcelJS.Worksheet, number: number, cells: CellValue[], bad: boolean) {
    const row = target.getRow(number)
    cells.forEach((value, i) => {
      if (value !== null && value !== undefined) row.getCell(i + 1).value = value
    })
    if (number === 1) row.font = { bold: true }
    if (bad) {
      for (const [column, list] of this.problems.get(number) ?? []) {
        mark(row.getCell(column), list)
        this.marked += 1
      }
    }
    row.commit()
  }
}

/**
 * Copies the source's sheets (a csv: its one sheet) row by row; answers the names of the sheets
 * written and which of them is the input sheet.
 */
async function copySheets(
  writer: ExcelJS.stream.xlsx.WorkbookWriter,
  bytes: ByteSource,
  sourcePath: string,
  isCsv: boolean,
  copier: RowCopier,
  sheetRead: string | undefined,
): Promise<{ names: string[]; inputName: string }> {
  const names: string[] = []
  let inputName: string = SHEETS.input
  if (isCsv) {
    const input = writer.addWorksheet(SHEETS.input)
    names.push(SHEETS.input)
    await readCsvBytes(bytes, sourcePath, {
      row: (cells, number) => copier.copy(input, number, cells, true),
    })
    input.commit()
    return { names, inputName }
  }
  // The same input sheet the check read.
  const xlsx = await openXlsxZip(await openZip(bytes), baseName(sourcePath))
  const input = chooseInputSheet(xlsx.sheets, sheetRead)
  try {
    for (const sheet of xlsx.sheets) {
      if (sheet.kind !== 'worksheet') continue
      const isInput = sheet === input
      if (isInput) inputName = sheet.name
      const target = writer.addWorksheet(sheet.name.slice(0, 31) || `Sheet${names.length + 1}`, {
        state: sheet.state,
      })
      names.push(sheet.name)
      await xlsx.rows(sheet, (cells, number) => copier.copy(target, number, cells, isInput))
      target.commit()
    }
  } finally {
    await xlsx.close()
  }
  return { names, inputName }
}

async function annotateStreaming(
  bytes: ByteSource,
  sourcePath: string,
  isCsv: boolean,
  checked: CheckedWorkbook,
  temp: string,
) {
  const copier = new RowCopier(groupProblems(checked))
  const book = await streamingWorkbook(temp, { useSharedStrings: false, useStyles: true })
  const writer = book.writer
  let copied: { names: string[]; inputName: string }
  try {
    copied = await copySheets(writer, bytes, sourcePath, isCsv, copier, checked.sheet)
  } catch (error) {
    // The writer must finish (and close its file) before the temporary copy is removed.
    await book.commit().catch(() => {})
    throw error
  }
  // Last in the file (a sheet's data streams out in the order sheets are added), opened first.
  const errors = writer.addWorksheet(errorsSheetName(copied.names))
  let next = 1
  writeErrorsSheet(errors, checked, copied.inputName, (values) => {
    next += 1
    errors.getRow(next).values = values
    errors.getRow(next).commit()
  })
  errors.commit()
  ;(writer as unknown as { views: ExcelJS.WorkbookView[] }).views = opensOn(copied.names.length)
  await book.commit()
  return copier.marked
}
