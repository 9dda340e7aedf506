/**
 * One request from arrival to answer: latency and injected faults, routing, the token check,
 * the handler, and the one place that turns a thrown error into the spec's `{ "error" }` answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Answer, Call, SandboxContext } from './context'
import { cutBodyAfter, type FaultPlan } from './faults'
import { HttpError, sendError, sendJson } from './http'
import type { FaultRule } from './options'
import { findRoute } from './router'
import { authenticate } from './users'

/** What the request loop needs beyond the handlers' context. */
export interface RequestLoop {
  ctx: SandboxContext
  faults: FaultPlan
  /** Added to every request, in ms. */
  latencyMs: number
  /** True once close() was called: new requests are answered 503. */
  closing: () => boolean
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The injected answer of a fault with a status (e.g. 429 with Retry-After). */
function simulatedFailure(fault: FaultRule & { status: number }): HttpError {
  const headers: Record<string, string> =
    fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : {}
  return new HttpError(
    fault.status,
    `Simulated failure (status ${fault.status}) injected for testing.`,
    headers,
  )
}

/** The call for a routed request; throws 400, 404, 405 or 401 as the spec has them. */
function callFor(loop: RequestLoop, req: IncomingMessage, res: ServerResponse) {
  const method = req.method ?? 'GET'
  const rawUrl = req.url ?? '/'
  const rawPath = rawUrl.split('?')[0] ?? '/'
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
  const user = match.route.auth ? authenticate(loop.ctx, req) : { userId: 0, name: '' }
  // URLs the sandbox writes use its own address: the Host header is the caller's to choose.
  const call: Call = { req, res, url, params: match.params, user, origin: loop.ctx.origin() }
  return { call, handler: match.route.handler }
}

/** Handles a request up to its answer; undefined when the connection was cut on purpose. */
async function answerOf(
  loop: RequestLoop,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Answer | undefined> {
  const method = req.method ?? 'GET'
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/'
  if (loop.closing())
    throw new HttpError(503, 'The sandbox is shutting down; try again once it has restarted.')
  if (loop.latencyMs > 0) await wait(loop.latencyMs)
  const fault = loop.faults.take(method, rawPath)
  if (fault?.drop === 'before') {
    req.socket.destroy()
    return undefined
  }
  if (fault?.status !== undefined) throw simulatedFailure({ ...fault, status: fault.status })
  const { call, handler } = callFor(loop, req, res)
  if (fault?.holdMs) {
    loop.ctx.log(`holding ${method} ${rawPath} for ${fault.holdMs}ms (injected fault)`)
    await wait(fault.holdMs)
  }
  if (fault?.cutBodyAfterBytes !== undefined) cutBodyAfter(res, fault.cutBodyAfterBytes)
  let answer: Awaited<ReturnType<typeof handler>>
  try {
    answer = await handler(loop.ctx, call)
  } finally {
    // Tests wait for this line to know a held request has run its course, answered or not.
    if (fault?.holdMs) loop.ctx.log(`handled the held ${method} ${rawPath}`)
  }
  if (fault?.holdAnswerMs) {
    loop.ctx.log(
      `holding the answer of ${method} ${rawPath} for ${fault.holdAnswerMs}ms (injected fault)`,
    )
    await wait(fault.holdAnswerMs)
    loop.ctx.log(`let go of the held answer of ${method} ${rawPath}`)
  }
  if (fault?.drop === 'after') {
    req.socket.destroy()
    return undefined
  }
  return answer
}

export async function handleRequest(
  loop: RequestLoop,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = Date.now()
  const method = req.method ?? 'GET'
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/'
  const { ctx } = loop
  res.once('finish', () =>
    ctx.log(`${method} ${rawPath} ${res.statusCode} ${Date.now() - started}ms`),
  )
  try {
    const answer = await answerOf(loop, req, res)
    if (answer) sendJson(res, answer.status, answer.body, answer.headers)
  } catch (error) {
    if (error instanceof HttpError) {
      sendError(res, error.status, error.message, error.headers)
    } else if (!res.destroyed && !req.destroyed) {
      const detail = error instanceof Error ? error.message : String(error)
      ctx.log(`error in ${method} ${rawPath}: ${detail}`)
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
