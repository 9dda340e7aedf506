// The collection asked for between parts of a send: V8 makes a major collection when asked, and
// `gc` is given to no other context (this one, a later vm context, a worker's).
import { constants, PerformanceObserver } from 'node:perf_hooks'
import { runInNewContext } from 'node:vm'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { partGarbageCollector } from '../../src/core/flows/spend/part-garbage'

describe('partGarbageCollector', () => {
  it('has V8 make a major collection each time it is called', async () => {
    const collect = partGarbageCollector()
    for (let i = 0; i < 2; i += 1) {
      let observer: PerformanceObserver | undefined
      const major = new Promise<void>((resolve) => {
        observer = new PerformanceObserver((list) => {
          const kinds = list.getEntries().map((e) => (e as { detail?: { kind?: number } }).detail?.kind)
          if (kinds.includes(constants.NODE_PERFORMANCE_GC_MAJOR)) resolve()
        })
        observer.observe({ entryTypes: ['gc'] })
      })
      await collect()
      await major
      observer?.disconnect()
    }
  })

  it('leaves no gc in this context, in new contexts or in workers', async () => {
    partGarbageCollector()
    expect('gc' in globalThis).toBe(false)
    expect(runInNewContext('typeof gc')).toBe('undefined')
    const worker = new Worker(
      "require('node:worker_threads').parentPort.postMessage(typeof globalThis.gc)",
      { eval: true },
    )
    const seen = await new Promise((resolve) => worker.once('message', resolve))
    await worker.terminate()
    expect(seen).toBe('undefined')
  })
})
