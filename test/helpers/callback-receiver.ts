// A small HTTP server on 127.0.0.1 that stands for another service a buyer connects runs to: it
// keeps every run summary a service POSTs to it when a run ends.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import type { RunSummary } from '../../src/shared/contract'
import { standIn } from './stand-in'

export interface CallbackReceiver {
  /** Its address, with `path` (say, '/run-ended'). */
  url(path?: string): string
  /** Every summary received, in order, with the path it was sent to. */
  readonly received: { path: string; summary: RunSummary }[]
  /** Resolves with the summary of `runId` once one arrives (at once if it already has). */
  summaryOf(runId: string): Promise<RunSummary>
  close(): Promise<void>
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const received: { path: string; summary: RunSummary }[] = []
  const waiting = new Set<() => void>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const summary = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RunSummary
      received.push({ path: req.url ?? '', summary })
      res.end('ok')
      for (const wake of [...waiting]) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const found = (runId: string) => received.find((r) => r.summary.runId === runId)?.summary
  return {
    url: (path = '') => `http://127.0.0.1:${port}${path}`,
    received,
    summaryOf: (runId) =>
      new Promise((resolve) => {
        const check = () => {
          const summary = found(runId)
          if (!summary) return
          waiting.delete(check)
          resolve(summary)
        }
        waiting.add(check)
        check()
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A receiver for the tests of a file: started before them, closed after them. */
export function useCallbackReceiver(): CallbackReceiver {
  let receiver: CallbackReceiver | undefined
  beforeAll(async () => {
    receiver = await startCallbackReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
  })
  return standIn(() => {
    if (!receiver) throw new Error('The callback receiver starts in beforeAll.')
    return receiver
  })
}
