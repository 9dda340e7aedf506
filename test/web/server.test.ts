// Browser mode's guards, over real HTTP and a real WebSocket on 127.0.0.1: without the
// per-start secret, from a foreign Origin, or for a foreign Host, nothing is answered.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { WEB_SERVER_TIMEOUTS, startWebServer, type WebServer } from '../../src/web/server'
import { bodyLimitFor } from '../../src/web/bridge-endpoint'
import { fileRefSchema } from '../../src/shared/bridge/requests/arguments'
import {
  WEB_SUBPROTOCOL,
  bridgeRequests,
  createDispatch,
  type RequestName,
  type BridgeEventName,
  type BridgeHandlers,
} from '../../src/shared/bridge'

const dir = mkdtempSync(join(tmpdir(), 'web-server-'))
mkdirSync(join(dir, 'assets'))
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Skill Runner</title>')
writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("ui")')

const calls: string[] = []
const handlers = new Proxy({} as BridgeHandlers, {
  get: (_t, verb: string) => async () => {
    calls.push(verb)
    return { items: [] }
  },
})
const listeners = new Set<(event: BridgeEventName, payload: unknown) => void>()
const emit = (event: BridgeEventName, payload: unknown) =>
  listeners.forEach((l) => l(event, payload))

let server: WebServer
beforeAll(async () => {
  server = await startWebServer({
    rendererDir: dir,
    dispatch: createDispatch(handlers),
    subscribe: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw HTTP request, so Host and Origin can be anything (fetch would not allow that). */
function send(options: {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${server.port}`, ...options.headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

const own = () => `http://127.0.0.1:${server.port}`
const bridgeCall = (headers: Record<string, string>) =>
  send({
    method: 'POST',
    path: '/bridge/listEnvironments',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{}',
  })

describe('browser mode: HTTP', () => {
  it('prints an address on loopback that carries the secret', () => {
    expect(server.url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?s=[A-Za-z0-9_-]{40,}$`),
    )
  })

  it('serves the page with the secret, sets a strict cookie and a CSP, and no CORS headers', async () => {
    const page = await send({ path: `/?s=${server.secret}` })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Skill Runner</title>')
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/)
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.headers['access-control-allow-origin']).toBeUndefined()
    const cookie = String(page.headers['set-cookie']).split(';')[0]!
    const script = await send({ path: '/assets/app.js', headers: { cookie } })
    expect(script.status).toBe(200)
  })

  it('refuses the page and its files without the secret', async () => {
    expect((await send({ path: '/' })).status).toBe(403)
    expect((await send({ path: '/?s=wrong' })).status).toBe(403)
    expect((await send({ path: '/assets/app.js' })).status).toBe(403)
    expect(
      (
        await send({
          path: '/assets/app.js',
          headers: { cookie: `skill_runner_${server.port}=nope` },
        })
      ).status,
    ).toBe(403)
  })

  it('answers a Bridge call with the secret from its own origin', async () => {
    const answer = await bridgeCall({ origin: own(), 'x-skill-runner-secret': server.secret })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ ok: true, value: { items: [] } })
    expect(answer.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('refuses a Bridge call without the secret, even with the cookie', async () => {
    const before = calls.length
    const page = await send({ path: `/?s=${server.secret}` })
    const cookie = String(page.headers['set-cookie']).split(';')[0]!
    const attempts: Array<Record<string, string>> = [
      { origin: own() },
      { origin: own(), 'x-skill-runner-secret': 'guess' },
      { origin: own(), cookie },
    ]
    for (const headers of attempts) {
      const answer = await bridgeCall(headers)
      expect(answer.status).toBe(403)
      expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    }
    expect(calls.length).toBe(before)
  })

  it('refuses a Bridge call from a foreign Origin, or with none, even with the secret', async () => {
    const before = calls.length
    for (const origin of ['https://evil.example', `http://127.0.0.1:${server.port + 1}`, 'null']) {
      expect((await bridgeCall({ origin, 'x-skill-runner-secret': server.secret })).status).toBe(
        403,
      )
    }
    expect((await bridgeCall({ 'x-skill-runner-secret': server.secret })).status).toBe(403)
    expect(calls.length).toBe(before)
  })

  it('refuses every request for a foreign Host (DNS rebinding), even with secret and origin', async () => {
    const before = calls.length
    for (const host of [
      'evil.example',
      `evil.example:${server.port}`,
      `127.0.0.1.nip.io:${server.port}`,
      '127.0.0.1',
    ]) {
      const page = await send({ path: `/?s=${server.secret}`, headers: { host } })
      expect(page.status, host).toBe(403)
      expect(page.body).not.toContain('Skill Runner</title>')
      const call = await bridgeCall({
        host,
        origin: `http://${host}`,
        'x-skill-runner-secret': server.secret,
      })
      expect(call.status, host).toBe(403)
    }
    expect(calls.length).toBe(before)
  })

  it('accepts localhost as well as 127.0.0.1', async () => {
    const host = `localhost:${server.port}`
    const answer = await bridgeCall({
      host,
      origin: `http://${host}`,
      'x-skill-runner-secret': server.secret,
    })
    expect(answer.status).toBe(200)
  })

  it('refuses non-JSON bodies and unknown verbs', async () => {
    const text = await send({
      method: 'POST',
      path: '/bridge/listEnvironments',
      headers: {
        origin: own(),
        'x-skill-runner-secret': server.secret,
        'content-type': 'text/plain',
      },
      body: '{}',
    })
    expect(text.status).toBe(415)
    const unknown = await send({
      method: 'POST',
      path: '/bridge/__proto__',
      headers: {
        origin: own(),
        'x-skill-runner-secret': server.secret,
        'content-type': 'application/json',
      },
      body: '{}',
    })
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: { code: 'not-found' } })
  })

  it('will not listen on a non-loopback address', async () => {
    await expect(
      startWebServer({
        host: '0.0.0.0',
        rendererDir: dir,
        dispatch: createDispatch(handlers),
        subscribe: () => () => {},
      }),
    ).rejects.toThrow(/this computer only/)
  })
})

/** Opens a WebSocket; resolves 'open' with the socket, or the refusal's HTTP status. */
function openSocket(options: { protocols: string[]; origin?: string; host?: string }) {
  return new Promise<{ ws?: WebSocket; status?: number }>((resolve) => {
    const headers: Record<string, string> = {}
    if (options.host) headers.host = options.host
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`, options.protocols, {
      ...(options.origin ? { origin: options.origin } : {}),
      headers,
    })
    ws.on('open', () => resolve({ ws }))
    ws.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode })
      ws.terminate()
    })
    ws.on('error', () => resolve({ status: -1 }))
  })
}

describe('browser mode: WebSocket events', () => {
  it('pushes events to a socket that shows the secret, from its own origin', async () => {
    const { ws } = await openSocket({
      protocols: [WEB_SUBPROTOCOL, `secret.${server.secret}`],
      origin: own(),
    })
    expect(ws).toBeDefined()
    expect(ws!.protocol).toBe(WEB_SUBPROTOCOL)
    const frame = new Promise<string>((resolve) =>
      ws!.once('message', (data) => resolve(String(data))),
    )
    emit('activity', { activeRuns: 1, doneTasks: 0, totalTasks: 2 })
    expect(JSON.parse(await frame)).toEqual({
      event: 'activity',
      payload: { activeRuns: 1, doneTasks: 0, totalTasks: 2 },
    })
    ws!.close()
  })

  it('refuses a socket without the secret', async () => {
    expect((await openSocket({ protocols: [WEB_SUBPROTOCOL], origin: own() })).status).toBe(403)
    expect(
      (await openSocket({ protocols: [WEB_SUBPROTOCOL, 'secret.guess'], origin: own() })).status,
    ).toBe(403)
  })

  it('refuses a socket from a foreign Origin or without one', async () => {
    const protocols = [WEB_SUBPROTOCOL, `secret.${server.secret}`]
    expect((await openSocket({ protocols, origin: 'https://evil.example' })).status).toBe(403)
    expect((await openSocket({ protocols })).status).toBe(403)
  })

  it('refuses a socket for a foreign Host', async () => {
    const protocols = [WEB_SUBPROTOCOL, `secret.${server.secret}`]
    expect(
      (await openSocket({ protocols, origin: 'http://evil.example', host: 'evil.example' })).status,
    ).toBe(403)
  })
})

describe('browser mode: malformed requests, body limits and slow clients', () => {
  const withSecret = () => ({
    origin: own(),
    'x-skill-runner-secret': server.secret,
    'content-type': 'application/json',
  })

  it('answers 400, not 500, to a Bridge path with broken percent-encoding', async () => {
    const before = calls.length
    for (const path of ['/bridge/%E0%A4%A', '/bridge/%', '/bridge/list%ZZ']) {
      const answer = await send({ method: 'POST', path, headers: withSecret(), body: '{}' })
      expect(answer.status, path).toBe(400)
      expect(JSON.parse(answer.body)).toMatchObject({ ok: false })
    }
    expect(calls.length).toBe(before)
  })

  it('answers 413 above 1 MB for a verb that takes no file, by length or as it streams', async () => {
    const before = calls.length
    const over = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) })
    const byLength = await send({
      method: 'POST',
      path: '/bridge/listEnvironments',
      headers: withSecret(),
      body: over,
    })
    expect(byLength.status).toBe(413)
    expect(JSON.parse(byLength.body)).toMatchObject({ ok: false })
    const streamed = await sendChunked('/bridge/listEnvironments', over)
    expect(streamed.status).toBe(413)
    expect(calls.length).toBe(before)
  })

  it('takes up to 64 MB for the verbs that carry files, and answers 413 above that', async () => {
    const file = { kind: 'bytes', name: 'photo.png', base64: 'A'.repeat(2 * 1024 * 1024) }
    for (const [verb, args] of [
      ['uploadFiles', { environment: 'Sandbox', files: [file] }],
      ['describeFile', { file }],
    ] as const) {
      const answer = await send({
        method: 'POST',
        path: `/bridge/${verb}`,
        headers: withSecret(),
        body: JSON.stringify(args),
      })
      expect(answer.status, verb).toBe(200)
      expect(JSON.parse(answer.body), verb).toEqual({ ok: true, value: { items: [] } })
    }
    const huge = { ...file, base64: 'A'.repeat(64 * 1024 * 1024) }
    const tooBig = await send({
      method: 'POST',
      path: '/bridge/uploadFiles',
      headers: withSecret(),
      body: JSON.stringify({ environment: 'Sandbox', files: [huge] }),
    })
    expect(tooBig.status).toBe(413)
  })

  it('gives the larger limit to exactly the verbs whose arguments take a file', () => {
    const takesFile = (Object.keys(bridgeRequests) as RequestName[]).filter((verb) =>
      schemaContains(bridgeRequests[verb].args, fileRefSchema),
    )
    expect(takesFile.length).toBeGreaterThan(0)
    for (const verb of Object.keys(bridgeRequests) as RequestName[]) {
      expect(bodyLimitFor(verb), verb).toBe(
        takesFile.includes(verb) ? 64 * 1024 * 1024 : 1024 * 1024,
      )
    }
  })

  it(
    'drops twenty clients at once whose headers never finish, new or kept alive after an answer',
    { timeout: 15_000 },
    () =>
      onQuickServer(handlers, async (slow) => {
        const started = Date.now()
        const page = `GET /?s=${slow.secret} HTTP/1.1\r\nHost: 127.0.0.1:${slow.port}\r\n\r\n`
        const clients = Array.from({ length: 20 }, (_, i) =>
          // Half send a header line every 100 ms on a new connection; half get the page, then
          // send blank lines every 100 ms, which never begin a second request.
          i % 2 === 0
            ? trickle(
                slow.port,
                `GET / HTTP/1.1\r\nHost: 127.0.0.1:${slow.port}\r\n`,
                'X-Slow: 1\r\n',
              )
            : trickle(slow.port, page, '\r\n'),
        )
        const received = await Promise.all(clients)
        expect(Date.now() - started).toBeLessThan(5000)
        received.forEach((text, i) => {
          if (i % 2 === 1) expect(text, `client ${i}`).toMatch(/^HTTP\/1\.1 200/)
          expect(text, `client ${i}`).toMatch(/HTTP\/1\.1 408/)
        })
      }),
  )

  it('never cuts a Bridge call that takes longer than the headers may', async () => {
    const slowVerb = new Proxy({} as BridgeHandlers, {
      get: () => () => new Promise((done) => setTimeout(() => done({ items: [] }), 800)),
    })
    await onQuickServer(slowVerb, async (slow) => {
      const answer = await sendRaw('/bridge/listEnvironments', Buffer.from('{}'), 'length', slow)
      expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      expect(answer).toContain('"ok":true')
    })
  })

  it('lets a client sending an 11 MB Bridge body, whole or in chunks, read its 413', async () => {
    const before = calls.length
    const body = Buffer.alloc(11 * 1024 * 1024, 'a')
    for (const framing of ['length', 'chunked'] as const) {
      const answer = await sendRaw('/bridge/listEnvironments', body, framing)
      expect(answer, framing).toMatch(/^HTTP\/1\.1 413 /)
      expect(answer, framing).toContain('"ok":false')
    }
    expect(calls.length).toBe(before)
  })

  it('by default drops a client whose headers never finish within a minute', () => {
    const { headersMs, requestMs, checkEveryMs } = WEB_SERVER_TIMEOUTS
    expect(headersMs).toBeLessThanOrEqual(60_000)
    expect(requestMs + checkEveryMs).toBeLessThanOrEqual(120_000)
    expect(requestMs).toBeGreaterThanOrEqual(headersMs)
  })
})

/** A server of its own whose slow clients are dropped fast (300 ms for the headers), for `use`. */
async function onQuickServer(served: BridgeHandlers, use: (quick: WebServer) => Promise<void>) {
  const quick = await startWebServer({
    rendererDir: dir,
    dispatch: createDispatch(served),
    subscribe: () => () => {},
    timeouts: { headersMs: 300, requestMs: 1000, checkEveryMs: 50 },
  })
  try {
    await use(quick)
  } finally {
    await quick.close()
  }
}

/**
 * A raw connection that sends `first`, then `more` every 100 ms until the server closes it
 * (at most 10 s): what it received.
 */
function trickle(port: number, first: string, more: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk) => (received += String(chunk)))
    socket.on('error', () => {})
    socket.write(first)
    const drip = setInterval(() => socket.write(more), 100)
    const limit = setTimeout(() => {
      socket.destroy()
      reject(new Error(`still open after 10 s; received ${JSON.stringify(received)}`))
    }, 10_000)
    socket.on('close', () => {
      clearInterval(drip)
      clearTimeout(limit)
      resolve(received)
    })
  })
}

/**
 * A Bridge POST over a raw connection that writes its whole body, with a Content-Length or as
 * one chunk: what it received until the server closed, or a rejection when the connection failed.
 */
function sendRaw(
  path: string,
  body: Buffer,
  framing: 'length' | 'chunked',
  to: WebServer = server,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(to.port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk) => (received += String(chunk)))
    socket.on('error', (error) =>
      reject(new Error(`${error.message} after ${received.length} bytes`)),
    )
    socket.on('close', () => resolve(received))
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${to.port}\r\nOrigin: http://127.0.0.1:${to.port}\r\n` +
        `X-Skill-Runner-Secret: ${to.secret}\r\nContent-Type: application/json\r\n` +
        `Connection: close\r\n` +
        (framing === 'length'
          ? `Content-Length: ${body.length}\r\n\r\n`
          : `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`),
    )
    socket.write(body)
    // The client asks to close but does not end its side: the server closes after the answer.
    if (framing === 'chunked') socket.write('\r\n0\r\n\r\n')
  })
}

/** A POST whose body goes out in chunks without a Content-Length, as a stream would. */
function sendChunked(path: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: {
          host: `127.0.0.1:${server.port}`,
          origin: own(),
          'x-skill-runner-secret': server.secret,
          'content-type': 'application/json',
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (text += c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        )
      },
    )
    req.on('error', reject)
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.slice(at, at + 64 * 1024))
    req.end()
  })
}

/** True when `schema` is `target` or holds it anywhere inside (objects, arrays, unions...). */
function schemaContains(schema: unknown, target: unknown, seen = new Set<unknown>()): boolean {
  if (schema === target) return true
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false
  seen.add(schema)
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def
  if (!def) return false
  const inner = [def.innerType, def.element, def.valueType, def.in, def.out]
  const shape = def.shape as Record<string, unknown> | undefined
  const options = def.options as unknown[] | undefined
  return [...inner, ...Object.values(shape ?? {}), ...(options ?? [])].some((part) =>
    schemaContains(part, target, seen),
  )
}
