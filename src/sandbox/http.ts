/**
 * Small HTTP helpers for the sandbox: one error type that carries a status code, a streaming
 * JSON body reader with a size limit per request and a total across requests, and JSON answers in the `{ "error": string }` shape that
 * DESIGN.md fixes for every failure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { formatBytes } from '../shared/format/bytes'
import type * as z from 'zod'

/** A failure with the HTTP status it should be answered with. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const badRequest = (message: string) => new HttpError(400, message)
export const notFound = (message: string) => new HttpError(404, message)
export const conflict = (message: string) => new HttpError(409, message)

/** Default request body limit: large enough for a base64 upload of a ~300 MB file. */
export const DEFAULT_MAX_BODY_BYTES = 400 * 1024 * 1024

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    `The request body is larger than the sandbox accepts (${formatBytes(limit)}). Send a smaller file or fewer rows per request.`,
    { Connection: 'close' },
  )
}

/** Default total of request bodies held at once, across all requests. */
export const DEFAULT_MAX_BODIES_BYTES = 256 * 1024 * 1024

/**
 * The bytes of request bodies the sandbox holds at once, across requests. A body is counted from
 * its first byte until its request is answered (the parsed body lives that long). A request that
 * would pass the total waits for nobody: it is answered 503 with Retry-After, unless it is the
 * only one holding bytes (so one large upload always gets through on its own).
 */
export class BodyBudget {
  private used = 0
  private readonly held = new WeakMap<IncomingMessage, number>()

  constructor(readonly total: number) {}

  /** Counts `bytes` more for `req`; false when that would pass the total. */
  take(req: IncomingMessage, bytes: number): boolean {
    const mine = this.held.get(req) ?? 0
    if (this.used + bytes > this.total && this.used > mine) return false
    this.used += bytes
    this.held.set(req, mine + bytes)
    return true
  }

  /** Gives back everything `req` held (call once its answer is sent). */
  release(req: IncomingMessage): void {
    const mine = this.held.get(req) ?? 0
    this.used -= mine
    this.held.delete(req)
  }

  get inUse(): number {
    return this.used
  }
}

function busy(): HttpError {
  return new HttpError(
    503,
    'The sandbox is busy receiving other large requests. Try again in a few seconds.',
    { 'Retry-After': '2', Connection: 'close' },
  )
}

/**
 * Reads the whole request body as a stream, stopping with 413 as soon as it grows past `limit`
 * (or at once when Content-Length already says so), and with 503 when the bodies held across
 * requests would pass the budget's total. Rejects with a plain Error when the client goes away
 * mid-body; the caller then has nobody to answer.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  budget?: BodyBudget,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    req.resume()
    return Promise.reject(tooLarge(limit))
  }
  // A client gone before its body was read (a request held, then its process killed): the
  // request is already destroyed, and nothing more will come.
  if (req.destroyed) return Promise.reject(clientGone())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (error: Error | undefined) => {
      if (done) return
      done = true
      req.off('data', onData)
      if (error) reject(error)
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    }
    const stop = (error: HttpError) => {
      chunks.length = 0
      budget?.release(req)
      // Keep draining so the client can read the answer instead of a reset connection.
      req.resume()
      finish(error)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return stop(tooLarge(limit))
      if (budget && !budget.take(req, chunk.length)) return stop(busy())
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => finish(undefined))
    req.once('aborted', () => finish(new Error('The client closed the connection mid-request.')))
    req.once('error', (error) => finish(error))
    req.once('close', () => finish(clientGone()))
  })
}

function clientGone(): Error {
  return new Error('The client closed the connection before its body was read.')
}

/** Deepest nesting accepted in a JSON body; rows need three or four levels. */
export const MAX_JSON_DEPTH = 64

function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (item === null || typeof item !== 'object') continue
    if (depth >= limit) return true
    // An index loop: a workbook's bytes arrive as one very long array of numbers.
    const children: unknown[] = Array.isArray(item) ? item : Object.values(item)
    for (let i = 0; i < children.length; i += 1) {
      const child = children[i]
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
    }
  }
  return false
}

/** Parses a JSON body; an empty, malformed or absurdly nested body is a 400 that says so. */
export function parseJsonBody(bytes: Buffer, contentType?: string): unknown {
  const hint =
    contentType && !/json/i.test(contentType)
      ? ` The request says Content-Type "${contentType}"; send application/json.`
      : ''
  if (bytes.length === 0) {
    throw badRequest(`The request body is empty; send a JSON object.${hint}`)
  }
  let value: unknown
  try {
    value = JSON.parse(bytes.toString('utf8')) as unknown
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw badRequest(`The request body is not valid JSON (${detail}).${hint}`)
  }
  if (deeperThan(value, MAX_JSON_DEPTH)) {
    throw badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`)
  }
  return value
}

/** Reads and parses the JSON body of a request (counted against `budget` until it is answered). */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  budget?: BodyBudget,
): Promise<unknown> {
  return parseJsonBody(await readBody(req, limit, budget), req.headers['content-type'])
}

/** Validates a parsed body with a contract schema; a failure is a 400 naming the fields. */
export function validateBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The request body must be a JSON object.')
  }
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join('.') : 'body'
    if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      return `${where} is missing`
    }
    return `${where}: ${issue.message}`
  })
  throw badRequest(`The request body is not valid: ${problems.join('; ')}.`)
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    ...headers,
  })
  res.end(text)
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: message }, headers)
}
