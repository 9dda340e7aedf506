/**
 * Worker-thread entry: reads and checks one input workbook off the caller's thread, so a
 * 1,000,000-row sheet never freezes the window or the command line. Posts progress now and
 * then, and the result (or the unexpected error) at the end.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { readInputWorkbook } from './read'
import type { WorkerJob, WorkerMessage } from './parse'

const port = parentPort
if (port) {
  const job = workerData as WorkerJob
  const post = (message: WorkerMessage) => port.postMessage(message)
  post({ type: 'started' })
  try {
    const result = await readInputWorkbook(job.source, job.schema, {
      ...job.options,
      onProgress: (rowsRead) => post({ type: 'progress', rowsRead }),
    })
    post({ type: 'done', result })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
