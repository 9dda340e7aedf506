// Test helper: a fake Skill Execution Service on 127.0.0.1 (node:http, free port) that answers
// the way a broken or hostile one would: answers of any size made on the fly, bodies that trickle,
// connections that never get an answer. Close it in afterAll/afterEach: its open sockets are cut.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { afterEach } from 'vitest'
import { ApiClient, type ApiClientOptions } from '../../src/core/service'

export interface HostileService {
  url: string
  /** Requests seen, as "METHOD /path". */
  seen: string[]
  close(): Promise<void>
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

export async function startHostileService(handler: Handler): Promise<HostileService> {
  const sockets = new Set<Socket>()
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    handler(req, res)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

type ClientOptions = Omit<ApiClientOptions, 'baseUrl' | 'token'>

/**
 * The hostile service of each test, closed after it, and a client of it: `clientOf(handler)`
 * starts one answering with `handler` (closing the one before); the client's options are
 * `defaults` with `options` over.
 */
export function useHostileService(defaults: ClientOptions) {
  let current: HostileService | undefined
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  return {
    /** The service the test under way started. */
    get service(): HostileService {
      if (!current) throw new Error('no hostile service was started in this test')
      return current
    },
    async clientOf(handler: Handler, options: ClientOptions = {}): Promise<ApiClient> {
      await current?.close()
      current = await startHostileService(handler)
      const token = () => 'token-ada'
      return new ApiClient({ baseUrl: current.url, token, ...defaults, ...options })
    },
  }
}

const MB = 1024 * 1024

/**
 * A JSON answer of `megabytes` MB (a run list with more and more items), written as the reader
 * takes it: the server never holds more than one chunk, so only the client can grow.
 */
export function hugeJson(res: ServerResponse, megabytes: number, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json' })
  const item = '{"runId":"run-000001","status":"running","displayName":"a run"},'
  const chunk = Buffer.from(item.repeat(Math.floor((64 * 1024) / item.length)))
  let sent = 0
  res.write('{"items":[')
  const more = () => {
    while (!res.destroyed && sent < megabytes * MB) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', more)
    }
    if (!res.destroyed) res.end('{}]}')
  }
  more()
}

/** Headers at once, then one byte of body every `everyMs`, forever. */
export function trickle(res: ServerResponse, everyMs: number, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json' })
  res.write('{')
  const timer = setInterval(() => {
    if (res.destroyed) clearInterval(timer)
    else res.write(' ')
  }, everyMs)
  res.once('close', () => clearInterval(timer))
}

/** The resident memory of this process sampled every 10 ms, highest first seen. */
export function sampleMemory(onSample?: (growth: number) => void): {
  stop(): { peakGrowthMb: number }
} {
  const start = process.memoryUsage().rss
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
    onSample?.(peak - start)
  }, 10)
  return {
    stop() {
      clearInterval(timer)
      peak = Math.max(peak, process.memoryUsage().rss)
      return { peakGrowthMb: (peak - start) / MB }
    },
  }
}
