/**
 * What crosses the worker boundary: the job the client sends (as the worker's data) and the
 * messages the worker posts back. Plain data only, since it is copied between threads.
 */
import type { ListingInputSchema } from '../../../shared/contract'
import type { WorkbookSource } from '../byte-source'
import type { ReadOptions } from '../validate/read-result'
import type { CheckedWorkbook } from '../write/annotated-copy'
import type { ResultsPlan } from '../write/results-workbook'

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

/**
 * What a worker is sent: a job, or (once a kept worker is idle) word to collect the garbage its
 * last job left, so that an idle worker holds a few MB rather than the size of the last read.
 */
export type WorkerRequest = WorkerJob | { kind: 'collect' }

export type WorkerMessage =
  | { type: 'started' }
  | { type: 'progress'; rowsRead: number }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string; userMessage?: { message: string; nextStep: string } }
