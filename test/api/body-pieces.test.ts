import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { eachChunk } from '../../src/core/service/limits'

/** A full collection, asked of V8 from inside the test (vitest does not start with --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/**
 * A body of `count` pieces of 64 KB, each made when it is asked for, a turn of the event loop
 * after (as a socket's pieces come; V8 also keeps a WeakRef's target until that turn ends).
 */
function body(count: number): ReadableStream<Uint8Array> {
  let made = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((turn) => setImmediate(turn))
      if (made === count) controller.close()
      else controller.enqueue(new Uint8Array(64 * 1024).fill(made++ % 256))
    },
  })
}

describe('reading a body a piece at a time', () => {
  it('lets a piece go once it is taken, while the body is still read under a signal', async () => {
    const signal = new AbortController().signal
    let first: WeakRef<Uint8Array> | undefined
    let firstKept: boolean | undefined
    let taken = 0
    const complete = await eachChunk(body(64), signal, (piece) => {
      taken += 1
      if (taken === 1) first = new WeakRef(piece)
      if (taken === 48) {
        collectGarbage()
        firstKept = first?.deref() !== undefined
      }
      return true
    })
    expect(complete).toBe(true)
    expect(taken).toBe(64)
    // Raced against a promise of the abort, every piece read stayed until the body ended.
    expect(firstKept).toBe(false)
  })

  it('stops a read under way when the signal aborts, with its reason', async () => {
    const stop = new AbortController()
    const quiet = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) })
    const reading = eachChunk(quiet, stop.signal, () => true)
    const reason = new Error('the look was stopped')
    setTimeout(() => stop.abort(reason), 20)
    await expect(reading).rejects.toBe(reason)
  })

  it('stops with the reason of a signal aborted before it began', async () => {
    const stop = new AbortController()
    stop.abort(new Error('already stopped'))
    await expect(eachChunk(body(2), stop.signal, () => true)).rejects.toThrow('already stopped')
  })
})
