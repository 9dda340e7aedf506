/**
 * What a caller may ask of the sandbox (`startSandbox(options)`), the handle it gets back, and
 * the faults it can inject; checked once before anything starts.
 */
import type { SeedFile } from './seed'

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
  /**
   * How long an artifact's accessUrl works, in ms: after that it is refused (403) and a fresh
   * one comes with the run detail. Default: addresses never expire. The interface does not
   * promise they last, so clients must cope; this lets their tests show it.
   */
  urlTtlMs?: number
  /** The most rows one runRows or execute request may carry (default 10,000); more is a 400 naming it. */
  maxRows?: number
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
  /**
   * Handle the request (a run is made), then wait this long before answering: a client killed
   * meanwhile never learns the answer the service already stored.
   */
  holdAnswerMs?: number
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

export function checkOptions(options: SandboxOptions): void {
  const { taskMs, concurrency, port, maxBodyBytes, maxBodiesBytes, urlTtlMs, maxRows } = options
  if (taskMs !== undefined && (!Number.isInteger(taskMs) || taskMs < 0)) {
    throw new RangeError(`taskMs must be a whole number of milliseconds, 0 or more; got ${taskMs}.`)
  }
  if (urlTtlMs !== undefined && (!Number.isInteger(urlTtlMs) || urlTtlMs < 1)) {
    throw new RangeError(
      `urlTtlMs must be a whole number of milliseconds, 1 or more; got ${urlTtlMs}.`,
    )
  }
  if (maxRows !== undefined && (!Number.isInteger(maxRows) || maxRows < 1)) {
    throw new RangeError(`maxRows must be a whole number, 1 or more; got ${maxRows}.`)
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
