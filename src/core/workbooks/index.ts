/**
 * The one way into workbooks for the rest of the app: reading and checking an input workbook
 * (in a worker, or here), generating one from a template's schema, its annotated copy, a run's
 * results workbook, and the few names they share. Only tests and benches reach deeper.
 *
 *   read/      the dispatcher by format; xlsx/ (our streaming reader, exceljs as fallback), csv/
 *   validate/  rows against the template's schema (Collector), whatever the format
 *   write/     input workbook, annotated copy, results workbook, the streaming writer
 *   worker/    the worker thread's entry, the client that runs jobs in it, the pool of one worker between jobs
 */
export { chooseInputSheet, columnLetter, SHEETS } from './sheets'
export type { ReadResult, SetAsideTarget } from './validate/read-result'
export { readSpilledRows, type SpilledRows } from './validate/row-spill'
export { readInputWorkbook } from './read/read-input-workbook'
export { readCsv } from './read/csv/read-csv'
export type { PlanCell, PlanRow, ResultsPlan } from './write/results-workbook'
export { checkWritableFolder, streamingWorkbook, writeWorkbookFile } from './write/streaming-writer'
export { columnMapFromJson, headersKey, parseMapText, type ColumnMap } from './mapping/column-map'
export type { MappingOutcome } from './mapping/header-mapping'
export {
  generateInputWorkbook,
  isSetAsideWorkbook,
  linkSetAsideToRun,
  openXlsx,
  setAsideRunOf,
  spillResultsRows,
  writeRowsWorkbook,
} from './on-demand'
export {
  annotateWorkbook,
  parseInputWorkbook,
  SMALL_CSV_BYTES,
  writeResultsWorkbookFile,
} from './worker/client'
export { WorkerPool } from './worker/worker-pool'
