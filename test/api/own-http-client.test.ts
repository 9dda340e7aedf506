// What the engine's own HTTP client (node-http.ts) does that fetch did for it: JSON answers come
// compressed and are unpacked within the answer limit, an idle kept connection is let go before
// the service drops it, and a cancel while the body is read ends it with the cancel's reason.
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiClient, ApiError, nodeHttpFetcher, readAtMost } from '../../src/core/service'
import { until } from '../helpers/wait'
import { startHostileService, type Handler, type HostileService } from './hostile-service'

let service: HostileService | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

async function clientOf(handler: Handler) {
  service = await startHostileService(handler)
  return new ApiClient({ baseUrl: service.url, token: () => 'token-ada', maxAttempts: 1 })
}

const RUNS = { items: [{ runId: 'run-1', status: 'running' }], totalCount: 1, nextPageToken: '' }

describe('the engine’s own HTTP client', () => {
  it('asks for JSON compressed and reads a gzip answer as the JSON it holds', async () => {
    let asked = ''
    const client = await clientOf((req, res) => {
      asked = String(req.headers['accept-encoding'])
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
      res.end(gzipSync(JSON.stringify(RUNS)))
    })
    const list = await client.listRuns()
    expect(asked).toBe('gzip')
    expect(list.items.map((run) => run.runId)).toEqual(['run-1'])
  })

  it('stops an answer that unpacks past the limit, however small it came', async () => {
    // 64 MB of JSON text packed into well under 1 MB: the 32 MB answer limit counts unpacked.
    const packed = gzipSync(`{"items":[${'{"runId":"r","status":"x"},'.repeat(2_600_000)}{}]}`)
    expect(packed.length).toBeLessThan(1024 * 1024)
    const client = await clientOf((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
      res.end(packed)
    })
    const error = await client.listRuns().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toContain('larger than 32 MB')
  })

  it('lets a kept connection go before the service would, as its Keep-Alive hint says', async () => {
    // The service says it keeps an idle connection 2 s; the client closes its own after 1 s, so
    // no request is sent on a connection the service is closing.
    // (The service itself would drop it after Node's 5 s, without the client's end first.)
    const socket = { closed: false, endedByClient: false }
    const client = await clientOf((req, res) => {
      req.socket.once('end', () => (socket.endedByClient = !socket.closed))
      req.socket.once('close', () => (socket.closed = true))
      res.writeHead(200, { 'Content-Type': 'application/json', 'Keep-Alive': 'timeout=2' })
      res.end(JSON.stringify(RUNS))
    })
    await client.listRuns()
    await until(() => socket.closed, 10_000)
    expect(socket.endedByClient).toBe(true)
  })

  it('ends a body cut by a cancel with the cancel’s reason, not as a cut connection', async () => {
    service = await startHostileService((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' })
      res.write('the first part')
    })
    const cancel = new AbortController()
    const answer = await nodeHttpFetcher()(`${service.url}/files/a`, { signal: cancel.signal })
    const reading = readAtMost(answer.body, 1024 * 1024)
    cancel.abort(new DOMException('the user cancelled', 'AbortError'))
    await expect(reading).rejects.toMatchObject({
      name: 'AbortError',
      message: 'the user cancelled',
    })
  })
})
