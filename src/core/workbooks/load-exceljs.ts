/**
 * exceljs, loaded the first time it is needed: reading a workbook never needs it (the fast
 * reader does the work), and loading it costs a worker about half a second at start. The
 * module loader keeps the loaded module, so later calls cost nothing and nothing is kept here.
 */
import type ExcelJSModule from 'exceljs'

export async function loadExcelJs(): Promise<typeof ExcelJSModule> {
  return (await import('exceljs')).default
}
