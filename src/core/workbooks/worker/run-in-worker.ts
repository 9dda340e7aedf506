/**
 * Runs one job in a worker thread, with progress, cancellation and a memory ceiling of its own.
 * The worker's entry (entry.ts) is found next to this module: built to JavaScript in the app
 * and the command line; from the source tree, the bundle a test run made (named by
 * SKILL_RUNNER_BUILT_WORKERS) or else the TypeScript source loaded through tsx. Where no worker
 * entry can be found or started (a bare library use), the job runs on the calling thread.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Worker } from 'node:worker_threads'
import type { WorkerJob, WorkerMessage } from './messages'

/**
 * Where a worker waits between jobs (worker-pool.ts's WorkerPool): a job takes the one kept under
 * its key, or none, and offers it back when it ended cleanly.
 */
export interface WorkerPoolSlot {
  take(key: string): Promise<Worker | null>
  keep(worker: Worker, key: string): boolean
}

export interface WorkerOptions {
  signal?: AbortSignal
  /** Heap ceiling of the worker in MB (default 1024). */
  maxMemoryMb?: number
  /**
   * The worker's young generation in MB (V8's default when absent): a job that makes many
   * short-lived objects (a workbook written row by row) peaks lower with a small one.
   */
  youngMemoryMb?: number
  /** The worker's entry file, instead of the one built next to this module. */
  workerFile?: string
  /** Where a worker is kept between jobs (the engine's); without it each job starts its own. */
  pool?: WorkerPoolSlot
}

interface WorkerEntry {
  /** A built .js file, or code that loads the .ts source through tsx. */
  code: string
  eval: boolean
}

/**
 * The built entry's names, relative to the bundle this module is part of: Electron's main
 * bundle (out/main, or a chunk below it), then the command line's (out/cli; see
 * scripts/build-cli.mjs and electron.vite.config.ts, which name these files).
 */
const BUILT_ENTRIES = ['./workbook-worker.js', '../workbook-worker.js', './worker.js'] as const

/**
 * The worker file next to this module: built (.js) in the app and CLI, else (the source tree)
 * the test run's bundle or the source (.ts). Looked up for every job (a few file checks,
 * nothing kept between calls).
 */
function workerEntry(): WorkerEntry | null {
  try {
    for (const name of BUILT_ENTRIES) {
      const file = fileURLToPath(new URL(name, import.meta.url))
      if (existsSync(file)) return { code: file, eval: false }
    }
    // The source tree: the bundle the test run made (test/setup/built-workers.ts), else entry.ts
    // through tsx's loader.
    const bundles = process.env.SKILL_RUNNER_BUILT_WORKERS
    if (bundles && existsSync(join(bundles, 'worker.js')))
      return { code: join(bundles, 'worker.js'), eval: false }
    const source = new URL('./entry.ts', import.meta.url)
    if (existsSync(fileURLToPath(source))) {
      const pkg = createRequire(import.meta.url).resolve('tsx/package.json')
      const api = pathToFileURL(join(dirname(pkg), 'dist/esm/api/index.mjs')).href
      const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(source.href)}))`
      return { code, eval: true }
    }
  } catch {
    // Not running from files (or tsx is not installed): work on the calling thread.
  }
  return null
}

/** Node flags that load code into every thread: tsx's hooks, when the parent runs TypeScript. */
const PRELOAD_FLAGS: ReadonlySet<string> = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
])

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
export type Failure =
  | { kind: 'memory'; maxMemoryMb: number }
  | { kind: 'crash'; detail: string }
  | { kind: 'user'; message: string; nextStep: string }

function startWorker(
  entry: WorkerEntry,
  maxMemoryMb: number,
  youngMemoryMb: number | undefined,
): Worker {
  const young = youngMemoryMb ? { maxYoungGenerationSizeMb: youngMemoryMb } : {}
  // node:worker_threads loads with the first worker: a check read on this thread never needs it.
  const { Worker } = process.getBuiltinModule('node:worker_threads')
  const start = (execArgv?: string[]) =>
    new Worker(entry.code, {
      eval: entry.eval,
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, ...young },
      stdout: false,
      stderr: false,
      ...(execArgv ? { execArgv } : {}),
    })
  try {
    return start(entry.eval ? undefined : builtWorkerArgv(process.execArgv))
  } catch (error) {
    // A flag of the parent's that a worker may not be given outright: inherit them all.
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
    return start()
  }
}

/**
 * How a job with these options is run: the key of the worker that fits it (its entry file and
 * memory limits), and how to start one; null when no worker entry can be found.
 */
export function workerFor(options: WorkerOptions): { key: string; start: () => Worker } | null {
  const { maxMemoryMb = 1024, youngMemoryMb, workerFile } = options
  const entry = workerFile ? { code: workerFile, eval: false } : workerEntry()
  if (!entry) return null
  return {
    key: `${maxMemoryMb}:${youngMemoryMb ?? ''}:${entry.code}`,
    start: () => startWorker(entry, maxMemoryMb, youngMemoryMb),
  }
}

/**
 * Runs one job in a worker (the one `pool` holds when its entry and limits fit, else a new one);
 * `here` does the same job on this thread when no worker can start. Resolves with the job's
 * result, or with `onFailure`'s answer when the worker failed. A worker whose job ended cleanly
 * goes back to `pool`; any other is ended, so no job sees what a failed one left behind.
 */
export async function inWorker<T>(
  job: WorkerJob,
  options: WorkerOptions & { onProgress?: (rowsRead: number) => void },
  here: () => Promise<T>,
  onFailure: (failure: Failure) => T,
): Promise<T> {
  const { signal, maxMemoryMb = 1024, onProgress, pool } = options
  signal?.throwIfAborted()
  const found = workerFor(options)
  if (!found) return here()
  const { key } = found
  const taken = pool ? await pool.take(key) : null
  if (signal?.aborted) {
    // Cancelled while a loading worker was waited for: it goes back unused.
    if (taken && !pool?.keep(taken, key)) void taken.terminate()
    signal.throwIfAborted()
  }
  const worker = taken ?? found.start()
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const settle = (fn: () => void, clean = false) => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      worker.off('message', onMessage).off('error', onError).off('exit', onExit)
      fn()
      if (!clean || !pool?.keep(worker, key)) void worker.terminate()
    }
    const onAbort = () => settle(() => reject(signal?.reason ?? new Error('aborted')))
    signal?.addEventListener('abort', onAbort, { once: true })
    /** Whether the worker started (a failure before that means it could not load). */
    let heard = taken !== null
    const fail = (failure: Failure, clean = false) => {
      try {
        const answer = onFailure(failure)
        settle(() => resolve(answer), clean)
      } catch (error) {
        settle(() => reject(error), clean)
      }
    }
    const onMessage = (message: WorkerMessage) => {
      heard = true
      if (message.type === 'progress') onProgress?.(message.rowsRead)
      else if (message.type === 'done') settle(() => resolve(message.result as T), true)
      else if (message.type === 'failed')
        fail(
          message.userMessage
            ? { kind: 'user', ...message.userMessage }
            : { kind: 'crash', detail: message.message },
          // A refusal the user can act on (a file over the limits) leaves the worker sound.
          message.userMessage !== undefined,
        )
    }
    const onError = (error: Error & { code?: string }) => {
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
    }
    const onExit = (code: number) => fail({ kind: 'crash', detail: `exit code ${code}` })
    worker.on('message', onMessage).on('error', onError).on('exit', onExit)
    worker.postMessage(job)
  })
}
