/**
 * The engine's side of the workbook worker: reading and checking a workbook, writing its
 * annotated copy, and writing a run's results workbook, each run in a worker thread
 * (run-in-worker.ts) with progress, cancellation and a memory ceiling of its own. A workbook
 * too big for the worker ends with a clear message, never with the app running out of memory
 * or its window freezing.
 */
import { open, stat } from 'node:fs/promises'
import type { ListingInputSchema } from '../../../shared/contract'
import { EngineError } from '../../errors'
import { sourceName, type WorkbookSource } from '../byte-source'
import { fileKind, readInputWorkbook } from '../read/read-input-workbook'
import type { ReadOptions, ReadResult } from '../validate/read-result'
import type { AnnotateResult, CheckedWorkbook } from '../write/annotated-copy'
import type { ResultsPlan } from '../write/results-workbook'
import { unpackedRead, type PackedRead } from './packed-rows'
import { inWorker, type Failure, type WorkerOptions } from './run-in-worker'
import { xlsxAndWriters } from '../on-demand'
import { defined } from '../../../shared/defined'

export interface ParseOptions extends ReadOptions, WorkerOptions {
  /**
   * A csv file of at most this many bytes is read on the calling thread: starting a worker
   * costs more than reading it, and its size bounds its memory. Only for callers with no window
   * to freeze (the command line sets 1 MB); by default every file is read in a worker.
   */
  onThisThreadUpToBytes?: number
}

const SPILL_YOUNG_MB = 8

/** How the command line's small workbooks are read (see `onThisThreadUpToBytes`). */
export const SMALL_CSV_BYTES = 1024 * 1024

export async function parseInputWorkbook(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ParseOptions = {},
): Promise<ReadResult> {
  const {
    signal,
    maxMemoryMb,
    onProgress,
    workerFile,
    pool,
    onThisThreadUpToBytes,
    ...readOptions
  } = options
  // One reader, wherever it runs: the worker's entry calls the same function with these options.
  const here = () =>
    readInputWorkbook(source, schema, { ...readOptions, ...defined({ onProgress }) })
  if (onThisThreadUpToBytes && (await smallCsv(source, onThisThreadUpToBytes))) {
    signal?.throwIfAborted()
    try {
      return await here()
    } catch (error) {
      // What a worker's failure would have said, for the same failure here.
      return readFailureOf(
        error instanceof EngineError
          ? { kind: 'user', message: error.message, nextStep: error.nextStep }
          : { kind: 'crash', detail: String(error) },
      )
    }
  }
  const posted = await inWorker<ReadResult | PackedRead>(
    { kind: 'read', source, schema, options: readOptions },
    {
      signal,
      maxMemoryMb,
      onProgress,
      workerFile,
      pool,
      // Rows spilled as they are read are garbage at once: a small young generation collects
      // them before they pile up (as the results workbook's writer does).
      ...(readOptions.spill ? { youngMemoryMb: SPILL_YOUNG_MB } : {}),
    },
    here,
    readFailureOf,
  )
  return unpackedRead(posted)
}

function readFailureOf(failure: Failure): ReadResult {
  return readFailure(
    failure.kind === 'memory'
      ? `The workbook is too large to check on this computer (it needs more than ${failure.maxMemoryMb} MB). Split it into smaller workbooks and try again.`
      : failure.kind === 'user'
        ? failure.message
        : 'Checking the workbook stopped unexpectedly. Open it in Excel or LibreOffice, save it again as .xlsx, and try again.',
  )
}

/**
 * Whether a workbook is a csv of at most `maxBytes`, found before reading it: named as a csv, a
 * regular file of that size, and not a zip or OLE file wearing a csv's name (those go to the
 * xlsx reader, whose memory the worker's ceiling guards).
 */
async function smallCsv(source: WorkbookSource, maxBytes: number): Promise<boolean> {
  const name = sourceName(source)
  if ('bytes' in source)
    return (
      source.bytes.byteLength <= maxBytes && fileKind(source.bytes.subarray(0, 8), name) === 'csv'
    )
  try {
    const found = await stat(source.path)
    if (!found.isFile() || found.size > maxBytes) return false
    const file = await open(source.path, 'r')
    try {
      const head = Buffer.alloc(8)
      await file.read(head, 0, 8, 0)
      return fileKind(head, name) === 'csv'
    } finally {
      await file.close()
    }
  } catch {
    // Not there, or not readable: the worker's reader says what is wrong, in its words.
    return false
  }
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
    ...defined({ unreadable: unreadable || undefined, sheet }),
  }
  return inWorker<AnnotateResult>(
    {
      kind: 'annotate',
      sourcePath,
      checked,
      outPath,
      ...defined({ loadWholeMaxBytes }),
    },
    workerOptions,
    // The writers load where they run on this thread (no worker could start): a check never does.
    async () =>
      (await xlsxAndWriters()).annotateHere(sourcePath, checked, outPath, {
        loadWholeMaxBytes,
      }),
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
      await (await xlsxAndWriters()).writeResultsFile(plan, outPath)
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
