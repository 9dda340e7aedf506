/**
 * The local Skill Execution Service (INTERFACES.md, "The sandbox service"): every path of the
 * interface over plain Node HTTP, state in SQLite, tasks executed by a scheduler in this process.
 * It is the app's built-in Sandbox environment, the offline demo and the server tests talk to.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BlobStore } from './blobs'
import { CallbackSender } from './callbacks'
import type { Call, SandboxContext, SandboxUser } from './context'
import { demoSeed } from './demo-content'
import {
  type Db,
  type RunRow,
  type UserRow,
  getMeta,
  getRow,
  openDatabase,
  run,
  setMeta,
  allRows,
} from './db'
import {
  BodyBudget,
  DEFAULT_MAX_BODIES_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  HttpError,
  sendError,
  sendJson,
} from './http'
import { forgetOldAnswers } from './idempotency'
import { PageTokens } from './pagination'
import { findRoute } from './router'
import { Scheduler } from './scheduler'
import {
  applySeedContent,
  applySeedUsers,
  loadSeedFile,
  parseSeed,
  type Seed,
  type SeedFile,
} from './seed'
import { runSummaryOf } from './serialize'

export { SeedError, parseSeed, type SeedFile } from './seed'
export { demoSeed } from './demo-content'

export const SANDBOX_DEMO_TOKEN = 'sandbox-demo-token'

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number
  /** Bearer tokens, each its own user. None: one demo user with SANDBOX_DEMO_TOKEN. */
  tokens?: string[]
  /** SQLite file that keeps state across restarts; default in memory. */
  dbPath?: string
  /** Seed content (object or path of a JSON seed file); default: the built-in demo content. */
  seed?: SeedFile | string
  /** How long each task takes, in milliseconds (default 300). */
  taskMs?: number
  /**
   * Added to every request before it is handled, in ms (a distant service: loopback answers
   * in well under a millisecond, which hides what concurrency buys a client). Default 0.
   */
  latencyMs?: number
  /** Tasks executing at once across the server (default 4). */
  concurrency?: number
  /** Largest request body accepted, in bytes (default 400 MB); larger is a 413. */
  maxBodyBytes?: number
  /**
   * Request bodies held at once across requests, in bytes (default 256 MB); a request that would
   * pass it while others hold bodies is a 503 with Retry-After.
   */
  maxBodiesBytes?: number
  /** Receives one line per request and per notable event. Never receives tokens. */
  log?: (line: string) => void
}

/**
 * A failure the sandbox simulates on purpose, so clients can test their retries and their
 * recovery from lost answers against the real server.
 */
export interface FaultRule {
  /** Only requests with this method; default any. */
  method?: string
  /** Only requests to exactly this path (no query), e.g. paths.runRows('row-echo'); default any. */
  path?: string
  /** Answer this status without handling the request, e.g. 429, 500 or 503. */
  status?: number
  /** With `status`: the Retry-After header, in seconds. */
  retryAfterSeconds?: number
  /**
   * `before`: cut the connection without handling the request. `after`: handle the request (a
   * run is created), then cut the connection instead of answering: a lost answer.
   */
  drop?: 'before' | 'after'
  /** Wait this long before handling the request (a slow service; a client may give up or die). */
  holdMs?: number
  /** Handle the request, send the headers and this many body bytes, then cut the connection. */
  cutBodyAfterBytes?: number
  /** How many matching requests it applies to; default 1. */
  times?: number
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string
  host: string
  port: number
  /** SANDBOX_DEMO_TOKEN when the sandbox made its demo user (no tokens given), else undefined. */
  demoToken: string | undefined
  /** The accepted tokens, first user first. */
  tokens: string[]
  /** Makes the next matching request(s) fail as the rule says (for tests of clients). */
  injectFault(rule: FaultRule): void
  /** Stops the scheduler and the server, then closes the database. */
  close(): Promise<void>
}

/** Lets `limit` body bytes through, then cuts the connection (a download broken half-way). */
function cutBodyAfter(res: ServerResponse, limit: number): void {
  let sent = 0
  const write = res.write.bind(res) as (chunk: Buffer, callback?: () => void) => boolean
  const cut = () => setTimeout(() => res.socket?.destroy(), 20)
  const patchedWrite = (chunk: unknown): boolean => {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    const room = limit - sent
    if (room <= 0) return false
    if (bytes.length >= room) {
      sent = limit
      write(bytes.subarray(0, room), cut)
      return false
    }
    sent += bytes.length
    return write(bytes)
  }
  res.write = patchedWrite as typeof res.write
  res.end = ((chunk?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') patchedWrite(chunk)
    if (sent < limit) cut()
    return res
  }) as typeof res.end
}

/** The line the `sandbox` command prints on stdout once it is ready. */
export function formatSandboxBanner(sandbox: Pick<Sandbox, 'url'>): string {
  return `listening on ${sandbox.url}`
}

function checkOptions(options: SandboxOptions): void {
  const { taskMs, concurrency, port, maxBodyBytes, maxBodiesBytes } = options
  if (taskMs !== undefined && (!Number.isInteger(taskMs) || taskMs < 0)) {
    throw new RangeError(`taskMs must be a whole number of milliseconds, 0 or more; got ${taskMs}.`)
  }
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
    throw new RangeError(`concurrency must be a whole number, 1 or more; got ${concurrency}.`)
  }
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new RangeError(`port must be from 0 to 65535; got ${port}.`)
  }
  if (maxBodyBytes !== undefined && (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)) {
    throw new RangeError(`maxBodyBytes must be a positive whole number; got ${maxBodyBytes}.`)
  }
  if (maxBodiesBytes !== undefined && (!Number.isInteger(maxBodiesBytes) || maxBodiesBytes < 1)) {
    throw new RangeError(`maxBodiesBytes must be a positive whole number; got ${maxBodiesBytes}.`)
  }
  for (const token of options.tokens ?? []) {
    if (!/^[\x21-\x7e]+$/.test(token)) {
      throw new RangeError('Each token must be printable ASCII without spaces.')
    }
  }
}

/** Sets up users: the seed's, then one per token (or the demo user). First user first. */
function setUpUsers(
  db: Db,
  seed: Seed | undefined,
  tokens: string[],
): { accepted: Map<string, SandboxUser>; firstUserId: number; demoToken: string | undefined } {
  if (seed) applySeedUsers(db, seed)
  const accepted = new Map<string, SandboxUser>()
  const ensure = (token: string, name: (id: number) => string): SandboxUser => {
    const existing = getRow<UserRow>(db, 'SELECT * FROM users WHERE token = ?', token)
    if (existing) return { userId: existing.user_id, name: existing.name }
    const next =
      (getRow<{ id: number | null }>(db, 'SELECT max(user_id) AS id FROM users')?.id ?? 0) + 1
    run(db, 'INSERT INTO users (user_id, name, token) VALUES (?, ?, ?)', next, name(next), token)
    return { userId: next, name: name(next) }
  }
  const firstUsers: SandboxUser[] = []
  let demoToken: string | undefined
  if (tokens.length === 0) {
    demoToken = SANDBOX_DEMO_TOKEN
    firstUsers.push(ensure(SANDBOX_DEMO_TOKEN, () => 'Sandbox demo user'))
    accepted.set(SANDBOX_DEMO_TOKEN, firstUsers[0]!)
  }
  for (const token of tokens) {
    const user = ensure(token, (id) => `User ${id}`)
    firstUsers.push(user)
    accepted.set(token, user)
  }
  for (const user of seed?.users ?? []) {
    if (user.token) accepted.set(user.token, { userId: user.userId, name: user.name })
  }
  return { accepted, firstUserId: firstUsers[0]!.userId, demoToken }
}

function pageTokenSecret(db: Db): Buffer {
  const stored = getMeta(db, 'page_token_secret')
  if (stored) return Buffer.from(stored, 'hex')
  const secret = randomBytes(32)
  setMeta(db, 'page_token_secret', secret.toString('hex'))
  return secret
}

const BEARER = /^Bearer\s+(\S+)\s*$/i

function authenticate(ctx: SandboxContext, req: IncomingMessage): SandboxUser {
  const header = req.headers.authorization
  const challenge = { 'WWW-Authenticate': 'Bearer realm="skill-runner-sandbox"' }
  if (!header) {
    throw new HttpError(
      401,
      'The API token is missing. Send it as "Authorization: Bearer <token>" (the sandbox prints its demo token when it starts).',
      challenge,
    )
  }
  const token = BEARER.exec(header)?.[1]
  const user = token ? ctx.tokens.get(token) : undefined
  if (!user) {
    throw new HttpError(
      401,
      'The API token is not valid for this sandbox. Check the token, or use the one the sandbox printed when it started.',
      challenge,
    )
  }
  return user
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options)
  const host = options.host ?? '127.0.0.1'
  const log = options.log ?? (() => {})
  const seed =
    options.seed === undefined
      ? undefined
      : typeof options.seed === 'string'
        ? await loadSeedFile(options.seed)
        : parseSeed(options.seed)
  const dbPath = options.dbPath ?? ':memory:'
  const db = openDatabase(dbPath)
  let blobs: BlobStore | undefined
  try {
    const users = setUpUsers(db, seed, options.tokens ?? [])
    const content = seed ?? parseSeed(demoSeed(users.firstUserId), 'The built-in demo content')
    if (!seed) applySeedUsers(db, content)
    const userIds = new Set(
      allRows<{ user_id: number }>(db, 'SELECT user_id FROM users').map((u) => u.user_id),
    )
    applySeedContent(db, content, userIds)
    forgetOldAnswers(db)
    blobs = await BlobStore.open(dbPath)

    let origin = ''
    const callbacks = new CallbackSender(log)
    const scheduler = new Scheduler({
      db,
      blobs,
      taskMs: options.taskMs ?? 300,
      concurrency: options.concurrency ?? 4,
      log,
      onRunFinished: (runId) => {
        const row = getRow<RunRow>(db, 'SELECT * FROM runs WHERE run_id = ?', runId)
        if (!row) return
        log(
          `run ${runId} ${row.status}: ${row.completed_tasks} of ${row.total_tasks} tasks succeeded`,
        )
        if (row.callback_url) callbacks.send(row.callback_url, runSummaryOf(row))
      },
    })
    const ctx: SandboxContext = {
      db,
      blobs,
      pageTokens: new PageTokens(pageTokenSecret(db)),
      scheduler,
      callbacks,
      tokens: users.accepted,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      bodyBudget: new BodyBudget(options.maxBodiesBytes ?? DEFAULT_MAX_BODIES_BYTES),
      log,
      origin: () => origin,
    }

    let closing = false
    const latencyMs = Math.max(0, Math.min(60_000, Math.floor(options.latencyMs ?? 0)))
    const faults: (FaultRule & { left: number })[] = []
    const takeFault = (method: string, rawPath: string): FaultRule | undefined => {
      const index = faults.findIndex(
        (f) => (!f.method || f.method.toUpperCase() === method) && (!f.path || f.path === rawPath),
      )
      if (index < 0) return undefined
      const fault = faults[index]!
      fault.left -= 1
      if (fault.left <= 0) faults.splice(index, 1)
      return fault
    }
    const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      const started = Date.now()
      const method = req.method ?? 'GET'
      const rawUrl = req.url ?? '/'
      const rawPath = rawUrl.split('?')[0] ?? '/'
      res.once('finish', () =>
        log(`${method} ${rawPath} ${res.statusCode} ${Date.now() - started}ms`),
      )
      try {
        if (closing)
          throw new HttpError(503, 'The sandbox is shutting down; try again once it has restarted.')
        if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs))
        const fault = faults.length ? takeFault(method, rawPath) : undefined
        if (fault?.drop === 'before') {
          req.socket.destroy()
          return
        }
        if (fault?.status !== undefined) {
          const headers: Record<string, string> =
            fault.retryAfterSeconds !== undefined
              ? { 'Retry-After': String(fault.retryAfterSeconds) }
              : {}
          throw new HttpError(
            fault.status,
            `Simulated failure (status ${fault.status}) injected for testing.`,
            headers,
          )
        }
        let url: URL
        try {
          url = new URL(`http://sandbox${rawUrl.startsWith('/') ? '' : '/'}${rawUrl}`)
        } catch {
          throw new HttpError(400, 'The request address could not be read.')
        }
        const match = findRoute(method, rawPath)
        if (match.kind === 'none') {
          throw new HttpError(
            404,
            `There is no endpoint at ${method} ${rawPath}. Service paths start with /svc/v1.`,
          )
        }
        if (match.kind === 'wrong-method') {
          throw new HttpError(
            405,
            `${rawPath} does not accept ${method}; use ${match.allow.join(' or ')}.`,
            {
              Allow: [...new Set(match.allow)].join(', '),
            },
          )
        }
        const user = match.route.auth ? authenticate(ctx, req) : { userId: 0, name: '' }
        // URLs the sandbox writes use its own address: the Host header is the caller's to choose.
        const call: Call = { req, res, url, params: match.params, user, origin }
        if (fault?.holdMs) {
          log(`holding ${method} ${rawPath} for ${fault.holdMs}ms (injected fault)`)
          await new Promise((r) => setTimeout(r, fault.holdMs))
        }
        if (fault?.cutBodyAfterBytes !== undefined) cutBodyAfter(res, fault.cutBodyAfterBytes)
        const answer = await match.route.handler(ctx, call)
        if (fault?.drop === 'after') {
          req.socket.destroy()
          return
        }
        if (answer) sendJson(res, answer.status, answer.body, answer.headers)
      } catch (error) {
        if (error instanceof HttpError) {
          sendError(res, error.status, error.message, error.headers)
        } else if (!res.destroyed && !req.destroyed) {
          const detail = error instanceof Error ? error.message : String(error)
          log(`error in ${method} ${rawPath}: ${detail}`)
          sendError(
            res,
            500,
            `The sandbox failed to handle this request (${detail}). This is a bug in the sandbox.`,
          )
        }
        if (res.headersSent && !res.writableEnded) res.destroy()
      } finally {
        ctx.bodyBudget?.release(req)
      }
    }

    const server = createServer((req, res) => {
      void handle(req, res)
    })
    server.on('clientError', (_error, socket) => {
      if (socket.writable) {
        const body = JSON.stringify({ error: 'The request could not be read as HTTP.' })
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        )
      } else {
        socket.destroy()
      }
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
    const port = (server.address() as AddressInfo).port
    const urlHost = host.includes(':') ? `[${host}]` : host
    origin = `http://${urlHost}:${port}`
    scheduler.start()

    let closed: Promise<void> | undefined
    const storage = blobs
    return {
      url: origin,
      host,
      port,
      demoToken: users.demoToken,
      tokens: [...users.accepted.keys()],
      injectFault: (rule) => {
        faults.push({ ...rule, left: rule.times ?? 1 })
      },
      close: () => {
        closed ??= (async () => {
          closing = true
          const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()))
          server.closeAllConnections()
          await serverClosed
          callbacks.close()
          await scheduler.stop()
          db.close()
          await storage.close()
        })()
        return closed
      },
    }
  } catch (error) {
    db.close()
    await blobs?.close()
    throw error
  }
}
