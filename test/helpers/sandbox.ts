/**
 * Test helper: starts the real sandbox on 127.0.0.1 (free port) with fast tasks, and small
 * helpers to call it over real HTTP. Close it in afterAll/afterEach.
 */
import { afterAll, beforeAll } from 'vitest'
import { isTerminalStatus, paths, type RunDetail } from '../../src/shared/contract'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox'
import { standIn } from './stand-in'

export interface TestSandbox extends Sandbox {
  /** The first user's token (the demo token unless `tokens` were given). */
  token: string
}

/** Starts a sandbox for tests: 127.0.0.1, port 0, taskMs 20 unless told otherwise. */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, taskMs: 20, ...options })
  const token = options.tokens?.[0] ?? sandbox.demoToken ?? sandbox.tokens[0] ?? ''
  return Object.assign(sandbox, { token })
}

/**
 * The sandbox of the tests around the call (a describe block, or the file): started before them,
 * closed after them. What is returned stands for it and may be used inside the tests and hooks
 * that run after the start; reading it earlier is a mistake in the test and says so.
 */
export function useTestSandbox(options: SandboxOptions = {}): TestSandbox {
  let started: TestSandbox | undefined
  beforeAll(async () => {
    started = await startTestSandbox(options)
  })
  afterAll(() => started?.close())
  return standIn(() => {
    if (!started) throw new Error('the test sandbox is used before it started (beforeAll)')
    return started
  })
}

export interface CallResult<T = unknown> {
  status: number
  headers: Headers
  /** The parsed JSON body, or the text when it is not JSON. */
  body: T
}

export interface CallOptions {
  method?: string
  /** Sent as JSON unless it is a string (sent as is). */
  body?: unknown
  /** Bearer token; `null` sends no Authorization header. Default: the sandbox's first token. */
  token?: string | null
  headers?: Record<string, string>
}

/** How many runs the sandbox's token user has, as its runs list counts them. */
export async function runCount(sandbox: TestSandbox): Promise<number> {
  return (await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount
}

/** One request to the sandbox; `path` is a path from the catalog (e.g. paths.runs()). */
export async function call<T = unknown>(
  sandbox: TestSandbox,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const token = options.token === undefined ? sandbox.token : options.token
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  if (token !== null) headers.Authorization = `Bearer ${token}`
  let body: string | undefined
  if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json'
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  }
  const response = await fetch(sandbox.url + path, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T }
}

/** Sends rows to an official template straight to the sandbox, no engine in between; the run's id. */
export async function sendStraight(
  sandbox: TestSandbox,
  rows: Record<string, unknown>[],
  templateId = 'row-echo',
): Promise<string> {
  const sent = await call<{ runId: string }>(sandbox, paths.runRows(templateId), {
    body: { clientRequestId: requestId(), rows },
  })
  return sent.body.runId
}

/** Polls the run detail until the run has ended (bounded, about 10 s), and returns it. */
export async function waitForRun(
  sandbox: TestSandbox,
  runId: string,
  token: string = sandbox.token,
): Promise<RunDetail> {
  for (let i = 0; i < 1000; i += 1) {
    const result = await call<RunDetail>(sandbox, paths.run(runId), { token })
    if (result.status !== 200) throw new Error(`run detail answered ${result.status}`)
    if (isTerminalStatus(result.body.run.status)) return result.body
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`run ${runId} did not end`)
}

let requestCounter = 0
/** A fresh clientRequestId. */
export function requestId(): string {
  requestCounter += 1
  return `test-${process.pid}-${Date.now()}-${requestCounter}`
}
