/**
 * Work on a user's workbook in a worker thread (see worker.ts), with progress, cancellation and
 * a memory ceiling of its own: reading and checking a workbook, writing its annotated copy, and
 * writing a run's results workbook. A workbook too big for the worker ends with a clear
 * message, never with the app running out of memory or its window freezing. Where no worker
 * entry was built (a bare library use), the work runs on the calling thread instead.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ListingInputSchema } from '../../shared/contract'
import { EngineError } from '../errors'
import { annotateHere, type AnnotateResult, type CheckedWorkbook } from './annotate'
import { readInputWorkbook, type ReadOptions, type ReadResult, type WorkbookSource } from './read'
import { writeResultsFile, type ResultsPlan } from './results-file'

export type WorkerJob =
  | {
      kind: 'read'
      source: WorkbookSource
      schema: ListingInputSchema | null
      options: Omit<ReadOptions, 'onProgress'>
    }
  | {
      kind: 'annotate'
      sourcePath: string
      checked: CheckedWorkbook
      outPath: string
      loadWholeMaxBytes?: number
    }
  | { kind: 'results'; plan: ResultsPlan; outPath: string }

export type WorkerMessage =
  | { type: 'started' }
  | { type: 'progress'; rowsRead: number }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string; userMessage?: { message: string; nextStep: string } }

export interface WorkerOptions {
  signal?: AbortSignal
  /** Heap ceiling of the worker in MB (default 1024). */
  maxMemoryMb?: number
  /** The worker's entry file, instead of the one built next to this module. */
  workerFile?: string
}

export interface ParseOptions extends ReadOptions, WorkerOptions {}

interface WorkerEntry {
  /** A built .js file, or code that loads the .ts source through tsx. */
  code: string
  eval: boolean
}

let cachedEntry: WorkerEntry | null | undefined

/** The worker file next to this module: built (.js) in the app and CLI, source (.ts) in tests. */
function workerEntry(): WorkerEntry | null {
  if (cachedEntry !== undefined) return cachedEntry
  cachedEntry = null
  try {
    // Electron's main bundle (out/main), then the command line's (out/cli).
    for (const name of ['./workbook-worker.js', '../workbook-worker.js', './worker.js']) {
      const file = fileURLToPath(new URL(name, import.meta.url))
      if (existsSync(file)) return (cachedEntry = { code: file, eval: false })
    }
    // The source tree (tests, tsx): load worker.ts through tsx's loader.
    const source = new URL('./worker.ts', import.meta.url)
    if (existsSync(fileURLToPath(source))) {
      const pkg = createRequire(import.meta.url).resolve('tsx/package.json')
      const api = pathToFileURL(join(dirname(pkg), 'dist/esm/api/index.mjs')).href
      const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(source.href)}))`
      cachedEntry = { code, eval: true }
    }
  } catch {
    // Not running from files (or tsx is not installed): work on the calling thread.
  }
  return cachedEntry
}

/** Node flags that load code into every thread: tsx's hooks, when the parent runs TypeScript. */
const PRELOAD_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader'])

/**
 * The node flags for a worker that runs a built JavaScript file: the parent's without its
 * preloads, which plain JavaScript does not need and which cost a worker about 70 ms to start
 * (tsx in development and in the benches; the app and the CLI have none). undefined, to inherit
 * them all as usual, when there are none.
 */
export function builtWorkerArgv(execArgv: string[]): string[] | undefined {
  const out: string[] = []
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i]!
    const equals = arg.indexOf('=')
    if (!PRELOAD_FLAGS.has(equals < 0 ? arg : arg.slice(0, equals))) out.push(arg)
    else if (equals < 0) i += 1
  }
  return out.length === execArgv.length ? undefined : out
}

/** How a job ended when it did not finish: the message for the user. */
type Failure =
  | { kind: 'memory'; maxMemoryMb: number }
  | { kind: 'crash'; detail: string }
  | { kind: 'user'; message: string; nextStep: string }

/**
 * Runs one job in a worker; `here` does the same job on this thread when no worker can start.
 * Resolves with the job's result, or with `onFailure`'s answer when the worker failed.
 */
function inWorker<T>(
  job: WorkerJob,
  options: WorkerOptions & { onProgress?: (rowsRead: number) => void },
  here: () => Promise<T>,
  onFailure: (failure: Failure) => T,
): Promise<T> {
  const { signal, maxMemoryMb = 1024, onProgress, workerFile } = options
  signal?.throwIfAborted()
  const entry = workerFile ? { code: workerFile, eval: false } : workerEntry()
  if (!entry) return here()
  return new Promise<T>((resolve, reject) => {
    const start = (execArgv?: string[]) =>
      new Worker(entry.code, {
        eval: entry.eval,
        workerData: job,
        resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
        stdout: false,
        stderr: false,
        ...(execArgv ? { execArgv } : {}),
      })
    let worker: Worker
    try {
      worker = start(entry.eval ? undefined : builtWorkerArgv(process.execArgv))
    } catch (error) {
      // A flag of the parent's that a worker may not be given outright: inherit them all.
      if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
      worker = start()
    }
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      fn()
      void worker.terminate()
    }
    const onAbort = () => settle(() => reject(signal?.reason ?? new Error('aborted')))
    signal?.addEventListener('abort', onAbort, { once: true })
    /** Whether the worker started (a failure before that means it could not load). */
    let heard = false
    const fail = (failure: Failure) => {
      try {
        const answer = onFailure(failure)
        settle(() => resolve(answer))
      } catch (error) {
        settle(() => reject(error))
      }
    }
    worker.on('message', (message: WorkerMessage) => {
      heard = true
      if (message.type === 'progress') onProgress?.(message.rowsRead)
      else if (message.type === 'done') settle(() => resolve(message.result as T))
      else if (message.type === 'failed')
        fail(
          message.userMessage
            ? { kind: 'user', ...message.userMessage }
            : { kind: 'crash', detail: message.message },
        )
    })
    worker.on('error', (error: Error & { code?: string }) => {
      // The worker could not even start (its file cannot be loaded where the app is installed):
      // work on this thread rather than fail.
      if (!heard && error.code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        settle(() => resolve(here()))
        return
      }
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'memory', maxMemoryMb }
          : { kind: 'crash', detail: error.message },
      )
    })
    worker.on('exit', (code) => fail({ kind: 'crash', detail: `exit code ${code}` }))
  })
}

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
 * The annotated copy of a checked workbook (see annotate.ts), written in a worker under the
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
  const { fileErrors, rowErrors, errorCells, unreadable } = checked
  checked = { fileErrors, rowErrors, errorCells, ...(unreadable ? { unreadable } : {}) }
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

/** A results workbook (see results-file.ts), written in a worker. */
export async function writeResultsWorkbookFile(
  plan: ResultsPlan,
  outPath: string,
  options: WorkerOptions = {},
): Promise<void> {
  await inWorker<null>(
    { kind: 'results', plan, outPath },
    options,
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
