/**
 * A workbook worker kept started between jobs. Starting a worker thread and loading the reader
 * into it costs 40-150 ms, a good part of checking a 100,000-row workbook; the New run screen
 * checks the same kinds of file again and again (another file, another sheet, another mapping).
 * The engine makes one of these and closes it with itself; nothing is kept at module level.
 *
 * Only a worker whose job ended cleanly (a result, or a refusal the user can act on) is kept; a
 * crash, a memory ceiling reached or a cancelled job ends its worker, and the next job starts a
 * new one. A kept worker never holds the process open, and ends after a minute unused.
 */
import type { Worker } from 'node:worker_threads'
import type { WorkerRequest } from './messages'
import { workerFor, type WorkerOptions } from './run-in-worker'

/** How long an unused worker is kept: long enough for a user's next check, no longer. */
const IDLE_MS = 60_000

/**
 * How long a kept worker sits unused before its last job's garbage is collected. A read that
 * follows a forced full collection cost about 200 ms more CPU (100,000 rows, measured), so a
 * check soon after another (another sheet, another mapping) finds the worker as the last job
 * left it; only a worker left idle is cleaned.
 */
const COLLECT_AFTER_MS = 10_000

interface Idle {
  worker: Worker
  /** The entry file and memory limits it was started with (a job needing others starts anew). */
  key: string
  timer: NodeJS.Timeout
  /** When its last job's garbage is collected (see COLLECT_AFTER_MS). */
  collect: NodeJS.Timeout
  /** Forgets the worker should it end while unused (listened for, so its end never throws). */
  forget: () => void
}

export class WorkerPool {
  private idle: Idle | null = null
  private closed = false
  /** A worker warm() started that has not loaded yet, and when it will have (or failed to). */
  private loading: { key: string; done: Promise<void> } | null = null

  /**
   * The unused worker started with `key`, now the caller's; null when there is none. One still
   * loading for the same key is waited for rather than started a second time.
   */
  async take(key: string): Promise<Worker | null> {
    if (this.loading?.key === key) await this.loading.done
    return this.takeIdle(key)
  }

  private takeIdle(key: string): Worker | null {
    const idle = this.idle
    if (!idle || idle.key !== key) return null
    this.release(idle)
    idle.worker.ref()
    return idle.worker
  }

  /**
   * Keeps a worker whose job ended cleanly, for the next job; the one kept before it is ended.
   * False when closed (the caller ends the worker).
   */
  keep(worker: Worker, key: string): boolean {
    if (this.closed) return false
    this.end()
    const forget = () => {
      if (this.idle?.worker === worker) this.release(this.idle)
    }
    worker.on('error', forget)
    worker.on('exit', forget)
    worker.unref()
    const timer = setTimeout(() => this.end(), IDLE_MS)
    timer.unref()
    // Its last job's garbage goes once it is left idle, not when a later job allocates (after a
    // 100,000-row check that is about 140 MB an idle worker would otherwise hold).
    const request: WorkerRequest = { kind: 'collect' }
    const collect = setTimeout(() => worker.postMessage(request), COLLECT_AFTER_MS)
    collect.unref()
    this.idle = { worker, key, timer, collect, forget }
    return true
  }

  /**
   * Starts a worker for jobs with these options, kept once it has loaded, unless one is kept
   * already: a check starts it while it looks for the template, so its read finds it ready. A
   * worker that cannot start is let go (the job itself then says what is wrong).
   */
  warm(options: Pick<WorkerOptions, 'maxMemoryMb' | 'workerFile'> = {}): void {
    // The cheap refusals first: finding the worker's entry looks at files, on every check.
    if (this.closed || this.loading) return
    const found = workerFor(options)
    if (!found || this.idle?.key === found.key) return
    let worker: Worker
    try {
      worker = found.start()
    } catch {
      return
    }
    worker.unref()
    let loaded = () => {}
    const loading = { key: found.key, done: new Promise<void>((resolve) => (loaded = resolve)) }
    this.loading = loading
    const settle = (ready: boolean) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onError)
      if (!ready || !this.keep(worker, found.key)) void worker.terminate()
      if (this.loading === loading) this.loading = null
      loaded()
    }
    const onMessage = () => settle(true)
    const onError = () => settle(false)
    worker.once('message', onMessage).once('error', onError).once('exit', onError)
  }

  /** Ends the kept worker; nothing is kept after this (the engine is closing). */
  close(): void {
    this.closed = true
    this.end()
  }

  private end() {
    const idle = this.idle
    if (!idle) return
    this.release(idle)
    void idle.worker.terminate()
  }

  private release(idle: Idle) {
    this.idle = null
    clearTimeout(idle.timer)
    clearTimeout(idle.collect)
    idle.worker.off('error', idle.forget)
    idle.worker.off('exit', idle.forget)
  }
}
