/**
 * The xlsx reader and the writers, as one module loaded on first use (on-demand.ts, and where a
 * read or a write comes to need them). A small csv's check never loads it; and being one module,
 * the code it shares with such a check is bundled into the same few files, not one per use.
 */
export { annotateHere } from './write/annotated-copy'
export { generateInputWorkbook } from './write/input-workbook'
export { readWithExceljs, readXlsx } from './read/xlsx/read-xlsx'
export { spillResultsRows, writeResultsFile } from './write/results-workbook'
export { writeRowsWorkbook } from './write/rows-workbook'
export {
  isSetAsideWorkbook,
  linkSetAsideToRun,
  setAsideRunOf,
  SetAsideWriter,
} from './write/set-aside'
export { openXlsx } from './read/xlsx/xlsx-file'
export { openZip } from './read/xlsx/zip'
