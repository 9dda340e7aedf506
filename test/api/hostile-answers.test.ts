// The client against a service that answers too much or too slowly: every answer is read up to a
// limit, every request has one deadline (its body included), and each ends in one clear ApiError
// that is never a bug.
import { describe, expect, it } from 'vitest'
import { ApiError, type FetchLike } from '../../src/core/service'
import {
  hugeJson,
  sampleMemory,
  trickle,
  useHostileService,
  type Handler,
} from './hostile-service'

const hostile = useHostileService({ backoffMs: 5, maxBackoffMs: 20, maxAttempts: 2 })
const clientOf = (handler: Handler, options: { timeoutMs?: number; fetch?: FetchLike } = {}) =>
  hostile.clientOf(handler, options)

/**
 * Runs `work` while watching this process's memory; past 300 MB of growth the call is cancelled,
 * so a client that reads without a limit fails the test instead of the machine.
 */
async function withinMemory<T>(work: (signal: AbortSignal) => Promise<T>) {
  const runaway = new AbortController()
  const memory = sampleMemory((growth) => {
    if (growth > 300 * 1024 * 1024) runaway.abort(new Error('memory ran away'))
  })
  const started = Date.now()
  const outcome = await work(runaway.signal).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  )
  const { peakGrowthMb } = memory.stop()
  return { ...outcome, peakGrowthMb, seconds: (Date.now() - started) / 1000 }
}

const TOO_LARGE = 'The service sent an answer larger than 32 MB; Skill Runner stopped reading it'

// Each case runs on the engine's own client (node:http, the command line and browser mode) and
// on a fetch handed to it, as the desktop app hands Electron's net.fetch.
const clients: [string, FetchLike | undefined][] = [
  ['the engine’s own HTTP client', undefined],
  ['a fetch given to the client', (input, init) => fetch(input, init)],
]

describe.each(clients)('%s', (_name, via) => {
  describe('no answer is read without a limit', () => {
    it('a 500 MB run list stops at 32 MB, quickly, without growing past 300 MB', async () => {
      const client = await clientOf((_req, res) => hugeJson(res, 500), { fetch: via })
      const { error, peakGrowthMb, seconds } = await withinMemory((signal) =>
        client.listRuns({}, { signal }),
      )
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).message).toContain(TOO_LARGE)
      expect((error as ApiError).category).toBe('unavailable')
      expect(peakGrowthMb).toBeLessThan(300)
      expect(seconds).toBeLessThan(15)
    })

    it('a 500 MB error body stops at 64 KB and the refusal keeps its status', async () => {
      const client = await clientOf((_req, res) => hugeJson(res, 500, 500), { fetch: via })
      const { error, peakGrowthMb, seconds } = await withinMemory((signal) =>
        client.listRuns({}, { signal }),
      )
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ kind: 'http', status: 500, category: 'unavailable' })
      expect((error as ApiError).message).toContain(
        'The service sent an answer larger than 64 KB; Skill Runner stopped reading it',
      )
      expect(peakGrowthMb).toBeLessThan(300)
      expect(seconds).toBeLessThan(15)
    })

    it('the same for a refused artifact and for a health check', async () => {
      const client = await clientOf(
        (req, res) => (req.url === '/healthz' ? hugeJson(res, 500) : hugeJson(res, 500, 404)),
        { fetch: via },
      )
      const artifact = await withinMemory((signal) =>
        client.fetchArtifact('/files/report', { signal }),
      )
      expect(artifact.error).toMatchObject({ kind: 'http', status: 404 })
      expect((artifact.error as ApiError).message).toContain('larger than 64 KB')
      const health = await withinMemory((signal) => client.healthz({ signal }))
      expect((health.error as ApiError).message).toContain(TOO_LARGE)
      expect(Math.max(artifact.peakGrowthMb, health.peakGrowthMb)).toBeLessThan(300)
    })
  })

  describe('no wait without an end', () => {
    it('a body that trickles is cut at the deadline, retried, then "did not answer in time"', async () => {
      const client = await clientOf((_req, res) => trickle(res, 50), { timeoutMs: 400, fetch: via })
      const started = Date.now()
      const error = await client.listRuns().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ kind: 'timeout', category: 'unavailable', attempts: 2 })
      expect((error as ApiError).message).toMatch(/did not answer in time/)
      expect(hostile.service.seen).toHaveLength(2)
      expect(Date.now() - started).toBeLessThan(5000)
    })

    it('an error body that trickles ends the refusal at the deadline too', async () => {
      const client = await clientOf((_req, res) => trickle(res, 50, 404), {
        timeoutMs: 400,
        fetch: via,
      })
      const started = Date.now()
      const error = await client.listRuns().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ kind: 'http', status: 404 })
      expect(Date.now() - started).toBeLessThan(5000)
    })

    it('a service that takes the connection and never answers is a timeout, retried', async () => {
      const client = await clientOf(() => {}, { timeoutMs: 300, fetch: via })
      const started = Date.now()
      const error = await client.run('run-1').catch((e: unknown) => e)
      expect(error).toMatchObject({ kind: 'timeout', category: 'unavailable', attempts: 2 })
      expect(hostile.service.seen).toHaveLength(2)
      expect(Date.now() - started).toBeLessThan(5000)
    })

    it('a POST whose answer trickles is not sent twice and may have been handled', async () => {
      const client = await clientOf((_req, res) => trickle(res, 50), { timeoutMs: 300, fetch: via })
      const error = await client
        .upload({ filename: 'a.txt', contentType: 'text/plain', content: 'aGVsbG8=' })
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ kind: 'timeout', maybeHandled: true, attempts: 1 })
      expect(hostile.service.seen).toHaveLength(1)
    })
  })
})
