/**
 * A run's detail read from the service straight into the history (storage/tables/run-rows.ts):
 * its tasks and outputs are written as they are parsed, a few hundred at a time, so the engine
 * holds one batch of them, never the detail. A small run's detail is also kept whole for the
 * caller (its page shows every row at once); past `keepUpTo` tasks or outputs nothing more of it
 * is kept, and the caller reads the stored rows in windows or pages.
 */
import type { Artifact, RunDetail, RunTask } from '../../../shared/contract'
import type { ApiClient } from '../../service'
import type { CallOptions } from '../../service/transport'
import type { RunDetailHead, RunDetailSink } from '../../service/run-detail-stream'
import type { RunRowsTable, StoredRunCounts } from '../../storage/tables/run-rows'

/**
 * A run of more tasks or outputs than this is shown a window of rows at a time: its page never
 * holds its whole detail (a run of 5,000 rows with 4 KB outputs is a detail of some 20 MB).
 */
export const WINDOWED_FROM = 5000

/** Tasks or outputs written in one transaction. */
const BATCH = 500
/** Inline text buffered before the outputs are written, whatever their number. */
const BATCH_CHARS = 4 * 1024 * 1024

/** What a stored reading gives: the run's summary, its counts, and its detail when it is small. */
export interface StoredRead {
  head: RunDetailHead
  counts: StoredRunCounts
  /** The whole detail, for a run of at most `keepUpTo` tasks and outputs; else null. */
  detail: RunDetail | null
}

/** Writes the parts of one reading of a run's detail as they come (one sink per attempt). */
export class StoringSink implements RunDetailSink {
  private tasks: RunTask[] = []
  private outputs: Artifact[] = []
  private chars = 0
  private outputSeq = 0
  private kept: { tasks: RunTask[]; artifacts: Artifact[] } | null = { tasks: [], artifacts: [] }

  constructor(
    private readonly rows: RunRowsTable,
    private readonly historyKey: string,
    private readonly runId: string,
    private readonly keepUpTo: number,
  ) {}

  task(task: RunTask): void {
    this.tasks.push(task)
    this.keep(task, 'tasks')
    if (this.tasks.length >= BATCH) this.flushTasks()
  }

  artifact(artifact: Artifact): void {
    this.outputs.push(artifact)
    this.chars += artifact.inlineText.length
    this.keep(artifact, 'artifacts')
    if (this.outputs.length >= BATCH || this.chars >= BATCH_CHARS) this.flushOutputs()
  }

  /** Writes what is left; the detail kept whole, or null for a big run. */
  finish(): Pick<RunDetail, 'tasks' | 'artifacts'> | null {
    this.flushTasks()
    this.flushOutputs()
    return this.kept
  }

  private keep(part: RunTask | Artifact, list: 'tasks' | 'artifacts') {
    if (!this.kept) return
    const into: (RunTask | Artifact)[] = this.kept[list]
    if (into.length >= this.keepUpTo) this.kept = null
    else into.push(part)
  }

  private flushTasks() {
    if (this.tasks.length === 0) return
    this.rows.putTasks(this.historyKey, this.runId, this.tasks)
    this.tasks = []
  }

  private flushOutputs() {
    if (this.outputs.length === 0) return
    this.rows.putOutputs(this.historyKey, this.runId, this.outputs, this.outputSeq)
    this.outputSeq += this.outputs.length
    this.outputs = []
    this.chars = 0
  }
}

/** Reads a run's detail into the history; see the header. */
export async function readStoredRun(
  client: Pick<ApiClient, 'readRun'>,
  rows: RunRowsTable,
  where: { historyKey: string; runId: string; keepUpTo: number },
  options?: CallOptions,
): Promise<StoredRead> {
  const { historyKey, runId, keepUpTo } = where
  let sink: StoringSink | undefined
  const head = await client.readRun(
    runId,
    () => (sink = new StoringSink(rows, historyKey, runId, keepUpTo)),
    options,
  )
  const kept = sink!.finish()
  rows.noteReading(historyKey, runId, head.run)
  return {
    head,
    counts: rows.counts(historyKey, runId),
    detail: kept ? { ...head, ...kept } : null,
  }
}
