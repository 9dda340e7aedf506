/**
 * The local Skill Execution Service (INTERFACES.md, "The sandbox service"): every path of the
 * interface over plain Node HTTP, state in SQLite, tasks executed by a scheduler in this process.
 * It is the app's built-in Sandbox environment, the offline demo and the server tests talk to.
 * This file only composes: options.ts (what a caller may ask), users.ts, request-loop.ts,
 * faults.ts, and the handlers behind router.ts.
 */
import { statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BlobStore } from './blobs'
import { CallbackSender } from './callbacks'
import type { SandboxContext } from './context'
import { demoSeed } from './demo-content'
import demoContent from './demo-content.json'
import { type Db, type RunRow, getRow, openDatabase, allRows, getMeta, setMeta } from './db'
import { FaultPlan } from './faults'
import { BodyBudget, DEFAULT_MAX_BODIES_BYTES, DEFAULT_MAX_BODY_BYTES } from './http'
import { forgetOldAnswers } from './idempotency'
import { checkOptions, type Sandbox, type SandboxOptions } from './options'
import { PageTokens } from './pagination'
import { handleRequest } from './request-loop'
import { Scheduler } from './scheduler'
import { applySeedContent, applySeedUsers, loadSeedFile, parseSeed, type Seed } from './seed'
import { sha256Hex } from './ids'
import { MAX_ROWS } from './rows'
import { runSummaryOf } from './serialize'
import { pageTokenSecret, setUpUsers, type AcceptedUsers } from './users'

export { SeedError, parseSeed, type SeedFile } from './seed'
export { demoSeed } from './demo-content'
export { SANDBOX_DEMO_TOKEN, type Sandbox, type SandboxOptions } from './options'

/** The line the `sandbox` command prints on stdout once it is ready. */
export function formatSandboxBanner(sandbox: Pick<Sandbox, 'url'>): string {
  return `listening on ${sandbox.url}`
}

async function seedOf(options: SandboxOptions): Promise<Seed | undefined> {
  if (options.seed === undefined) return undefined
  return typeof options.seed === 'string' ? loadSeedFile(options.seed) : parseSeed(options.seed)
}

/**
 * What the parsed demo content depends on: the content itself, its owner, and the code that
 * parsed it (the file this module was loaded from: a new build has a new one). Undefined when the
 * code cannot be told apart, and then the content is parsed every time.
 */
function demoVersion(ownerUserId: number): string | undefined {
  try {
    const code = statSync(new URL(import.meta.url))
    const parts = [JSON.stringify(demoContent), ownerUserId, code.size, code.mtimeMs]
    return sha256Hex(parts.join('\n'))
  } catch {
    return undefined
  }
}

/**
 * The demo content, parsed. Validating it with zod is most of a start's own work (each CLI command
 * on the built-in Sandbox is one start), so the parsed content is kept in the database with its
 * version and parsed again only when the version differs. It is still stored as usual.
 */
function demoContentFor(db: Db, ownerUserId: number): Seed {
  const version = demoVersion(ownerUserId)
  if (version !== undefined && getMeta(db, 'demo_content_version') === version) {
    const kept = getMeta(db, 'demo_content')
    if (kept !== undefined) return JSON.parse(kept) as Seed
  }
  const content = parseSeed(demoSeed(ownerUserId), 'The built-in demo content')
  if (version !== undefined) {
    db.transaction(() => {
      setMeta(db, 'demo_content', JSON.stringify(content))
      setMeta(db, 'demo_content_version', version)
    })()
  }
  return content
}

/** Users first, then the content they own: the seed's, or the demo content for the first user. */
function storeContent(db: Db, seed: Seed | undefined, tokens: string[]): AcceptedUsers {
  const users = setUpUsers(db, seed, tokens)
  const content = seed ?? demoContentFor(db, users.firstUserId)
  if (!seed) applySeedUsers(db, content)
  const userIds = new Set(
    allRows<{ user_id: number }>(db, 'SELECT user_id FROM users').map((u) => u.user_id),
  )
  applySeedContent(db, content, userIds)
  forgetOldAnswers(db)
  return users
}

/** What every handler reaches; `origin` answers the address once the server listens. */
function contextOf(
  options: SandboxOptions,
  parts: { db: Db; blobs: BlobStore; users: AcceptedUsers; origin: () => string },
): SandboxContext {
  const { db, blobs, origin } = parts
  const log = options.log ?? (() => {})
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
  return {
    db,
    blobs,
    pageTokens: new PageTokens(pageTokenSecret(db)),
    scheduler,
    callbacks,
    tokens: parts.users.accepted,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxRows: options.maxRows ?? MAX_ROWS,
    bodyBudget: new BodyBudget(options.maxBodiesBytes ?? DEFAULT_MAX_BODIES_BYTES),
    log,
    origin,
    urlTtlMs: options.urlTtlMs,
  }
}

/** Starts listening; answers the port (a free one when `port` is 0). */
async function listen(server: Server, port: number, host: string): Promise<number> {
  server.on('clientError', (_error, socket) => {
    if (!socket.writable) {
      socket.destroy()
      return
    }
    const body = JSON.stringify({ error: 'The request could not be read as HTTP.' })
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options)
  const host = options.host ?? '127.0.0.1'
  const seed = await seedOf(options)
  const dbPath = options.dbPath ?? ':memory:'
  const db = openDatabase(dbPath)
  let blobs: BlobStore | undefined
  try {
    const users = storeContent(db, seed, options.tokens ?? [])
    blobs = await BlobStore.open(dbPath)
    let origin = ''
    const ctx = contextOf(options, { db, blobs, users, origin: () => origin })
    let closing = false
    const faults = new FaultPlan()
    const loop = {
      ctx,
      faults,
      latencyMs: Math.max(0, Math.min(60_000, Math.floor(options.latencyMs ?? 0))),
      closing: () => closing,
    }
    const server = createServer((req, res) => void handleRequest(loop, req, res))
    const port = await listen(server, options.port ?? 0, host)
    origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
    ctx.scheduler.start()
    let closed: Promise<void> | undefined
    const storage = blobs
    const close = async () => {
      closing = true
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await serverClosed
      ctx.callbacks.close()
      await ctx.scheduler.stop()
      db.close()
      await storage.close()
    }
    return {
      url: origin,
      host,
      port,
      demoToken: users.demoToken,
      tokens: [...users.accepted.keys()],
      injectFault: (rule) => faults.inject(rule),
      close: () => (closed ??= close()),
    }
  } catch (error) {
    db.close()
    await blobs?.close()
    throw error
  }
}
