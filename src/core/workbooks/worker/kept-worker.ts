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

/** How long an unused worker is kept: long enough for a user's next check, no longer. */
const IDLE_MS = 60_000

interface Idle {
  worker: Worker
  /** The entry file and memory limits it was started with (a job needing others starts anew). */
  key: string
  timer: NodeJS.Timeout
  /** Forgets the worker should it end while unused (listened for, so its end never throws). */
  forget: () => void
}

export class KeptWorker {
  private idle: Idle | null = null
  private closed = false

  /** The unused worker started with `key`, now the caller's; null when there is none. */
  take(key: string): Worker | null {
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
    this.idle = { worker, key, timer, forget }
    return true
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
    idle.worker.off('error', idle.forget)
    idle.worker.off('exit', idle.forget)
  }
}
