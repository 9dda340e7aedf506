/**
 * Worker-thread entry of the sandbox's workbook check (check-off-thread.ts): reads and checks
 * one uploaded workbook under the worker's own memory ceiling and posts the answer back. Built
 * as a file of its own (scripts/build-cli.mjs, electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { checkWorkbook } from './check-workbook'
import type { WorkbookJob, WorkbookJobAnswer } from './check-off-thread'

const port = parentPort
if (port) {
  const job = workerData as WorkbookJob
  const post = (answer: WorkbookJobAnswer) => port.postMessage(answer)
  post({ kind: 'started' })
  checkWorkbook(job.bytes, job.fileName, job.schema).then(
    (result) => post({ kind: 'done', result }),
    (error: unknown) => post({ kind: 'failed', detail: String(error) }),
  )
}
