/**
 * The one way into workbooks for the rest of the app: reading and checking an input workbook
 * (in a worker, or here), generating one from a template's schema, its annotated copy, a run's
 * results workbook, and the few names they share. Only tests and benches reach deeper.
 *
 *   read/      the dispatcher by format; xlsx/ (our streaming reader, exceljs as fallback), csv/
 *   validate/  rows against the template's schema (Collector), whatever the format
 *   write/     input workbook, annotated copy, results workbook, the streaming writer
 *   worker/    the worker thread's entry and the client that runs jobs in it
 */
export type { WorkbookSource } from './byte-source'
export { WorkbookFileError } from './limits'
export { cellText, chooseInputSheet, columnLetter, isStreamedInputSheet, SHEETS } from './sheets'
export type { ErrorCell, ReadOptions, ReadResult, RowSink } from './validate/read-result'
export { readInputWorkbook } from './read/read-input-workbook'
export { readCsv } from './read/csv/read-csv'
export { inputSheetName } from './read/xlsx/read-xlsx'
export { openXlsx, type XlsxSource } from './read/xlsx/xlsx-file'
export { generateInputWorkbook, SCHEMA_PART_CHARS, schemaParts } from './write/input-workbook'
export { annotateHere, type AnnotateResult, type CheckedWorkbook } from './write/annotated-copy'
export type { PlanCell, ResultsPlan } from './write/results-workbook'
export {
  checkWritableFolder,
  streamingWorkbook,
  type StreamingWorkbook,
} from './write/streaming-writer'
export type { WorkerJob, WorkerMessage } from './worker/messages'
export { builtWorkerArgv, type WorkerOptions } from './worker/run-in-worker'
export {
  annotateWorkbook,
  parseInputWorkbook,
  writeResultsWorkbookFile,
  type ParseOptions,
} from './worker/client'
