/**
 * Reads an input workbook in a worker thread (see worker.ts), with progress, cancellation and a
 * memory ceiling of its own: a workbook too big for it ends with a file error, never with the
 * app running out of memory. Where no worker entry was built (a bare library use), it reads on
 * the calling thread instead.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ListingInputSchema } from '../../shared/contract'
import { readInputWorkbook, type ReadOptions, type ReadResult, type WorkbookSource } from './read'

export interface WorkerJob {
  source: WorkbookSource
  schema: ListingInputSchema | null
  options: Omit<ReadOptions, 'onProgress'>
}

export type WorkerMessage =
  | { type: 'started' }
  | { type: 'progress'; rowsRead: number }
  | { type: 'done'; result: ReadResult }
  | { type: 'failed'; message: string }

export interface ParseOptions extends ReadOptions {
  signal?: AbortSignal
  /** Heap ceiling of the worker in MB (default 1024). */
  maxMemoryMb?: number
  /** The worker's entry file, instead of the one built next to this module. */
  workerFile?: string
}

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
    // Not running from files (or tsx is not installed): read on the calling thread.
  }
  return cachedEntry
}

export async function parseInputWorkbook(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ParseOptions = {},
): Promise<ReadResult> {
  const { signal, maxMemoryMb = 1024, onProgress, workerFile, ...readOptions } = options
  signal?.throwIfAborted()
  const entry = workerFile ? { code: workerFile, eval: false } : workerEntry()
  if (!entry) return readInputWorkbook(source, schema, { ...readOptions, onProgress })
  const job: WorkerJob = { source, schema, options: readOptions }
  return new Promise<ReadResult>((resolve, reject) => {
    const worker = new Worker(entry.code, {
      eval: entry.eval,
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      stdout: false,
      stderr: false,
    })
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
    worker.on('message', (message: WorkerMessage) => {
      heard = true
      if (message.type === 'progress') onProgress?.(message.rowsRead)
      else if (message.type === 'done') settle(() => resolve(message.result))
      else if (message.type === 'failed')
        settle(() =>
          resolve(
            failure(
              `The workbook could not be read (${message.message.slice(0, 160)}). Open it in Excel or LibreOffice, save it as .xlsx, and try again.`,
            ),
          ),
        )
    })
    worker.on('error', (error: Error & { code?: string }) => {
      // The worker could not even start (its file cannot be loaded where the app is installed):
      // read on this thread rather than fail.
      if (!heard && error.code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        settle(() =>
          resolve(
            readInputWorkbook(source, schema, {
              ...readOptions,
              ...(onProgress ? { onProgress } : {}),
            }),
          ),
        )
        return
      }
      const message =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `The workbook is too large to check on this computer (it needs more than ${maxMemoryMb} MB). Split it into smaller workbooks and try again.`
          : `The workbook could not be read (${error.message.slice(0, 160)}). Open it in Excel or LibreOffice, save it as .xlsx, and try again.`
      settle(() => resolve(failure(message)))
    })
    worker.on('exit', (code) => {
      settle(() =>
        resolve(
          failure(`Checking the workbook stopped unexpectedly (exit code ${code}). Try again.`),
        ),
      )
    })
  })
}

function failure(message: string): ReadResult {
  return {
    valid: false,
    fileErrors: [message],
    rowErrors: [],
    errorCells: [],
    rows: [],
    rowNumbers: [],
    rowCount: 0,
  }
}
