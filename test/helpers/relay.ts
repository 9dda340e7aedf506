/**
 * Test helper: a recording relay on 127.0.0.1 in front of a real sandbox. Every request goes on
 * to the sandbox as it came; the bodies of runRows requests are kept in the order they crossed,
 * and a test may have the answer to one of them dropped (the service made the run, no answer
 * came) or learn that one went through (`onRun`).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Relay {
  url: string
  /** Every runRows body that crossed, in order. */
  sent: string[]
  /** The numbers (1-based, in `sent`) of runRows requests whose answer is dropped. */
  dropAnswers: Set<number>
  /** Called once the sandbox answered runRows request `n` (1-based), before the answer goes on. */
  onRun?: (n: number) => void
  close(): Promise<void>
}

export async function startRelay(target: string): Promise<Relay> {
  const relay: Relay = {
    url: '',
    sent: [],
    dropAnswers: new Set(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks)
      const isRun = req.method === 'POST' && /runRows/.test(req.url ?? '')
      if (isRun) relay.sent.push(body.toString('utf8'))
      const n = relay.sent.length
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k]) => !['host', 'content-length', 'transfer-encoding', 'connection'].includes(k),
        ),
      ) as Record<string, string>
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      })
      const text = Buffer.from(await answer.arrayBuffer())
      if (isRun) relay.onRun?.(n)
      if (isRun && relay.dropAnswers.has(n)) {
        req.socket.destroy()
        return
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' })
      res.end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return relay
}
