/**
 * Work a page started and may stop before it ends (working out a cost, uploading files): each
 * runs under its own AbortSignal, kept by the id the page made, so `cancelWork` reaches the
 * HTTP requests under way. Nothing here spends: a send is never cancellable once confirmed.
 */
import { EngineError } from '../errors'

/** What the user is told when they stopped the work themselves. */
export interface CancelledWords {
  message: string
  nextStep: string
}

export class CancellableWork {
  private readonly running = new Map<string, AbortController>()

  /**
   * Runs `work` under a signal that `cancel(workId)` aborts. Without an id it cannot be
   * cancelled. A cancelled work rejects with a "cancelled" EngineError, even when its last
   * request had already been answered (the page has gone back to where it was).
   */
  async run<T>(
    workId: string | undefined,
    words: CancelledWords,
    work: (signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T> {
    if (!workId) return work(undefined)
    if (this.running.has(workId)) {
      throw new EngineError('conflict', 'That work is already under way.', 'Wait for it to end.')
    }
    const controller = new AbortController()
    this.running.set(workId, controller)
    try {
      const result = await work(controller.signal)
      if (controller.signal.aborted) throw stopped(words)
      return result
    } catch (error) {
      if (controller.signal.aborted) throw stopped(words)
      throw error
    } finally {
      this.running.delete(workId)
    }
  }

  /** Aborts the work started with `workId`; false when none is running (it ended already). */
  cancel(workId: string): boolean {
    const controller = this.running.get(workId)
    controller?.abort(new Error('cancelled'))
    return controller !== undefined
  }
}

function stopped(words: CancelledWords): EngineError {
  return new EngineError('cancelled', words.message, words.nextStep)
}
