/**
 * Runs the workbook check (check-workbook.ts) in a worker thread of its own: the built-in
 * Sandbox shares the app's main process, and a million-row workbook or a hostile file must hold
 * up neither the other requests nor the app's window. The worker has a memory ceiling; a file
 * that needs more is answered with a file error, never with the process running out of memory.
 * Where no worker entry was built (a bare library use), the check runs on this thread.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ListingInputSchema, WorkbookValidation } from '../../shared/contract'
import { checkWorkbook } from './check-workbook'
import { RESAVE } from './file-problem'

export interface WorkbookJob {
  bytes: Uint8Array
  fileName: string
  schema: ListingInputSchema
}

export type WorkbookJobAnswer =
  | { kind: 'started' }
  | { kind: 'done'; result: WorkbookValidation }
  | { kind: 'failed'; detail: string }

/** Heap ceiling of one check, in MB. */
const WORKER_MEMORY_MB = 1024
const ENTRY = 'sandbox-workbook-worker'

interface WorkerEntry {
  /** A built .js file, or code that loads the .ts source through tsx (tests, development). */
  code: string
  eval: boolean
}

function workerEntry(): WorkerEntry | null {
  try {
    // Next to the bundle that holds this code: out/cli, out/main (or a chunk folder under it).
    for (const built of [`./${ENTRY}.js`, `../${ENTRY}.js`]) {
      const file = fileURLToPath(new URL(built, import.meta.url))
      if (existsSync(file)) return { code: file, eval: false }
    }
    // The source tree: the bundle the test run made (test/setup/built-workers.ts), else the
    // source through tsx's loader.
    const bundles = process.env.SKILL_RUNNER_BUILT_WORKERS
    const bundle = bundles ? join(bundles, `${ENTRY}.js`) : ''
    if (bundle && existsSync(bundle)) return { code: bundle, eval: false }
    const source = new URL(`./${ENTRY}.ts`, import.meta.url)
    if (!existsSync(fileURLToPath(source))) return null
    const tsx = createRequire(import.meta.url).resolve('tsx/package.json')
    const api = pathToFileURL(join(dirname(tsx), 'dist/esm/api/index.mjs')).href
    const load = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(source.href)}))`
    return { code: load, eval: true }
  } catch {
    // Not running from files, or tsx is not installed: check on this thread.
    return null
  }
}

function fileError(message: string): WorkbookValidation {
  return { valid: false, fileErrors: [message], rowErrors: [] }
}

const STOPPED = `Checking the workbook stopped unexpectedly. ${RESAVE}`

export function checkWorkbookOffThread(
  bytes: Uint8Array,
  fileName: string,
  schema: ListingInputSchema,
): Promise<WorkbookValidation> {
  const entry = workerEntry()
  if (!entry) return checkWorkbook(bytes, fileName, schema)
  const job: WorkbookJob = { bytes, fileName, schema }
  return new Promise((resolve) => {
    // The bytes are copied, not moved: a worker that cannot start leaves them to this thread.
    const worker = new Worker(entry.code, {
      eval: entry.eval,
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB },
      // A built file needs none of the parent's loaders (tsx in development).
      ...(entry.eval ? {} : { execArgv: [] }),
      stdout: false,
      stderr: false,
    })
    /** Whether the worker's code loaded (a failure before that falls back to this thread). */
    let started = false
    let settled = false
    const settle = (answer: WorkbookValidation) => {
      if (settled) return
      settled = true
      resolve(answer)
      void worker.terminate()
    }
    worker.on('message', (answer: WorkbookJobAnswer) => {
      if (answer.kind === 'started') started = true
      else settle(answer.kind === 'done' ? answer.result : fileError(STOPPED))
    })
    worker.on('error', (error: Error & { code?: string }) => {
      if (!started && !settled && error.code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        // The worker file could not be loaded where the app is installed: check here instead.
        settled = true
        void checkWorkbook(bytes, fileName, schema).then(resolve)
        return
      }
      settle(
        fileError(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `The workbook is too large to check (it needs more than ${WORKER_MEMORY_MB} MB of memory). Split it into smaller workbooks and try again.`
            : STOPPED,
        ),
      )
    })
    worker.on('exit', () => settle(fileError(STOPPED)))
  })
}
