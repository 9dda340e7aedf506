/**
 * The worker thread's entry, built as a file of its own (see run-in-worker.ts): reads and checks
 * an input workbook, or writes an annotated copy or a results workbook, off the caller's thread
 * and under the worker's memory ceiling, so that a 1,000,000-row sheet or a hostile file never
 * freezes or sinks the window or the command line.
 * Jobs come as messages, one at a time, so that a worker kept between jobs (kept-worker.ts)
 * reads the next workbook without being started again. Each job keeps its state to itself.
 * Posts progress now and then, and the result (or the failure) at the end of each job.
 */
import { parentPort } from 'node:worker_threads'
import { EngineError } from '../../errors'
import { readInputWorkbook } from '../read/read-input-workbook'
import { annotateHere } from '../write/annotated-copy'
import { writeResultsFile } from '../write/results-workbook'
import type { WorkerJob, WorkerMessage } from './messages'

type Post = (message: WorkerMessage) => void

async function run(job: WorkerJob, post: Post) {
  try {
    if (job.kind === 'read') {
      const result = await readInputWorkbook(job.source, job.schema, {
        ...job.options,
        onProgress: (rowsRead) => post({ type: 'progress', rowsRead }),
      })
      post({ type: 'done', result })
    } else if (job.kind === 'annotate') {
      const result = await annotateHere(job.sourcePath, job.checked, job.outPath, {
        loadWholeMaxBytes: job.loadWholeMaxBytes,
      })
      post({ type: 'done', result })
    } else {
      await writeResultsFile(job.plan, job.outPath)
      post({ type: 'done', result: null })
    }
  } catch (error) {
    post({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof EngineError
        ? { userMessage: { message: error.message, nextStep: error.nextStep } }
        : {}),
    })
  }
}

const port = parentPort
if (port) {
  const post: Post = (message) => port.postMessage(message)
  port.on('message', (job: WorkerJob) => void run(job, post))
  post({ type: 'started' })
}
