/**
 * The worker thread's entry, built as a file of its own (see run-in-worker.ts): reads and checks
 * an input workbook, or writes an annotated copy or a results workbook, off the caller's thread
 * and under the worker's memory ceiling, so that a 1,000,000-row sheet or a hostile file never
 * freezes or sinks the window or the command line.
 * Jobs come as messages, one at a time, so that a worker kept between jobs (worker-pool.ts)
 * reads the next workbook without being started again. Each job keeps its state to itself.
 * Posts progress now and then, and the result (or the failure) at the end of each job.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort } from 'node:worker_threads'
import { EngineError } from '../../errors'
import { readInputWorkbook } from '../read/read-input-workbook'
import { packedRead, type PackedRead } from './packed-rows'
import { annotateHere } from '../write/annotated-copy'
import { writeResultsFile } from '../write/results-workbook'
import type { WorkerJob, WorkerMessage, WorkerRequest } from './messages'

type Post = (message: WorkerMessage) => void

async function run(job: WorkerJob, post: Post) {
  try {
    if (job.kind === 'read') {
      const packed = await readPacked(job, post)
      // The objects the rows were packed from, and the read's garbage, are collected before the
      // copy is made: the thread does not hold them and the copy at once.
      collectGarbage()
      post({ type: 'done', result: packed })
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

/** A read whose kept rows cross packed (see packed-rows.ts). */
async function readPacked(job: WorkerJob & { kind: 'read' }, post: Post): Promise<PackedRead> {
  const result = await readInputWorkbook(job.source, job.schema, {
    ...job.options,
    onProgress: (rowsRead) => post({ type: 'progress', rowsRead }),
  })
  return packedRead(result)
}

/**
 * A full garbage collection of this thread's heap. V8 would leave an idle thread's garbage
 * where it is (nothing allocates to set it off); the flag lets a new context name V8's
 * collector, and puts no `gc` in this thread's or any other thread's own global scope.
 */
function collectGarbage() {
  ;(runInNewContext('gc') as () => void)()
}

const port = parentPort
if (port) {
  // Once per thread: contexts made after this can name V8's collector (see collectGarbage).
  setFlagsFromString('--expose-gc')
  const post: Post = (message) => port.postMessage(message)
  port.on('message', (request: WorkerRequest) => {
    if (request.kind === 'collect') collectGarbage()
    else void run(request, post)
  })
  post({ type: 'started' })
}
