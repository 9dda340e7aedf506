/**
 * exceljs, loaded the first time it is needed: reading a workbook never needs it (the fast
 * reader does the work), and loading it costs a worker about half a second at start.
 */
import type ExcelJSModule from 'exceljs'

let loaded: Promise<typeof ExcelJSModule> | undefined

export function loadExcelJs(): Promise<typeof ExcelJSModule> {
  loaded ??= import('exceljs').then((m) => m.default)
  return loaded
}
