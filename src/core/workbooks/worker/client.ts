/**
 * The engine's side of the workbook worker: reading and checking a workbook, writing its
 * annotated copy, and writing a run's results workbook, each run in a worker thread
 * (run-in-worker.ts) with progress, cancellation and a memory ceiling of its own. A workbook
 * too big for the worker ends with a clear message, never with the app running out of memory
 * or its window freezing.
 */
import type { ListingInputSchema } from '../../../shared/contract'
import { EngineError } from '../../errors'
import type { WorkbookSource } from '../byte-source'
import { readInputWorkbook } from '../read/read-input-workbook'
import type { ReadOptions, ReadResult } from '../validate/read-result'
import { annotateHere, type AnnotateResult, type CheckedWorkbook } from '../write/annotated-copy'
import { writeResultsFile, type ResultsPlan } from '../write/results-workbook'
import { inWorker, type Failure, type WorkerOptions } from './run-in-worker'

export interface ParseOptions extends ReadOptions, WorkerOptions {}

export async function parseInputWorkbook(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ParseOptions = {},
): Promise<ReadResult> {
  const { signal, maxMemoryMb, onProgress, workerFile, ...readOptions } = options
  return inWorker<ReadResult>(
    { kind: 'read', source, schema, options: readOptions },
    { signal, maxMemoryMb, onProgress, workerFile },
    () =>
      readInputWorkbook(source, schema, { ...readOptions, ...(onProgress ? { onProgress } : {}) }),
    (failure) =>
      readFailure(
        failure.kind === 'memory'
          ? `The workbook is too large to check on this computer (it needs more than ${failure.maxMemoryMb} MB). Split it into smaller workbooks and try again.`
          : failure.kind === 'user'
            ? failure.message
            : 'Checking the workbook stopped unexpectedly. Open it in Excel or LibreOffice, save it again as .xlsx, and try again.',
      ),
  )
}

/** The error for a write job that did not finish. */
function writeFailure(what: string, failure: Failure): never {
  if (failure.kind === 'user') throw new EngineError('refused', failure.message, failure.nextStep)
  if (failure.kind === 'memory')
    throw new EngineError(
      'over-limit',
      `Writing the ${what} needed more than ${failure.maxMemoryMb} MB of memory, so it was stopped.`,
      'Split the workbook into smaller ones and try again.',
    )
  // A disk's refusal says what to do (ENOSPC: no space left...); anything else stays inside.
  const disk = /^E[A-Z]+: [^,]*/.exec(failure.detail)?.[0]
  throw new EngineError(
    disk ? 'refused' : 'internal',
    `Writing the ${what} stopped unexpectedly${disk ? ` (${disk})` : ''}.`,
    disk
      ? 'Free some space or choose another folder, and try again.'
      : 'Try again; if it happens again, report it with the file.',
  )
}

/**
 * The annotated copy of a checked workbook (see write/annotated-copy.ts), written in a worker under the
 * same limits as the check. A file that could not be read has nothing to annotate: refused
 * with a message that says so.
 */
export async function annotateWorkbook(
  sourcePath: string,
  checked: CheckedWorkbook,
  outPath: string,
  options: WorkerOptions & { loadWholeMaxBytes?: number } = {},
): Promise<AnnotateResult> {
  const { loadWholeMaxBytes, ...workerOptions } = options
  // Only what the copy needs crosses to the worker (a whole ReadResult can hold every row).
  const { fileErrors, rowErrors, errorCells, unreadable, sheet } = checked
  checked = {
    fileErrors,
    rowErrors,
    errorCells,
    ...(unreadable ? { unreadable } : {}),
    ...(sheet !== undefined ? { sheet } : {}),
  }
  return inWorker<AnnotateResult>(
    {
      kind: 'annotate',
      sourcePath,
      checked,
      outPath,
      ...(loadWholeMaxBytes !== undefined ? { loadWholeMaxBytes } : {}),
    },
    workerOptions,
    () => annotateHere(sourcePath, checked, outPath, { loadWholeMaxBytes }),
    (failure) => writeFailure('annotated copy', failure),
  )
}

const RESULTS_YOUNG_MB = 8

/** A results workbook (see write/results-workbook.ts), written in a worker. */
export async function writeResultsWorkbookFile(
  plan: ResultsPlan,
  outPath: string,
  options: WorkerOptions = {},
): Promise<void> {
  await inWorker<null>(
    { kind: 'results', plan, outPath },
    // Row after row of short-lived cells: a small young generation keeps the thread's peak
    // about 30 MB lower for 10,000 rows, at no cost worth measuring.
    { youngMemoryMb: RESULTS_YOUNG_MB, ...options },
    async () => {
      await writeResultsFile(plan, outPath)
      return null
    },
    (failure) => writeFailure('results workbook', failure),
  )
}

function readFailure(message: string): ReadResult {
  return {
    valid: false,
    fileErrors: [message],
    rowErrors: [],
    errorCells: [],
    rows: [],
    rowNumbers: [],
    rowCount: 0,
    unreadable: true,
  }
}
