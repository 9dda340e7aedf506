/**
 * The worker thread's entry, built as a file of its own (see run-in-worker.ts): reads and checks
 * one input workbook, or writes an annotated copy or a results workbook, off the caller's thread
 * and under the worker's memory ceiling, so that a 1,000,000-row sheet or a hostile file never
 * freezes or sinks the window or the command line.
 * Posts progress now and then, and the result (or the failure) at the end.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { EngineError } from '../../errors'
import { readInputWorkbook } from '../read/read-input-workbook'
import { annotateHere } from '../write/annotated-copy'
import { writeResultsFile } from '../write/results-workbook'
import type { WorkerJob, WorkerMessage } from './messages'

const port = parentPort
if (port) {
  const job = workerData as WorkerJob
  const post = (message: WorkerMessage) => port.postMessage(message)
  post({ type: 'started' })
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
