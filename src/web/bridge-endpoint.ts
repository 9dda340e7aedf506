/**
 * The Bridge over HTTP: `POST /bridge/<verb>` with a JSON body of the verb's arguments, answered
 * with the Bridge's `{ ok, value | error }`. A call must come from this server's own origin and
 * carry the secret in its header (the page's cookie is not enough: any page can make a browser
 * send cookies), and its body has a size limit: large for the verbs that carry a dropped file as
 * base64, small for every other.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  WEB_SECRET_HEADER,
  forbiddenError,
  invalidArguments,
  type Dispatch,
  type RequestName,
} from '../shared/bridge'
import { sendJson } from './http-answers'
import type { RequestGate } from './request-gate'

export interface BridgeEndpoint {
  gate: RequestGate
  dispatch: Dispatch
  refused: (reason: string) => void
}

/**
 * The verbs whose arguments take a FileRef (src/shared/bridge/requests): a browser sends the
 * dropped file's bytes inside the call. test/web/server.test.ts checks this list against the
 * contract's schemas, so a new verb that takes a file cannot be forgotten here.
 */
const VERBS_WITH_FILES: ReadonlySet<string> = new Set<RequestName>([
  'describeFile',
  'uploadFiles',
  'checkWorkbook',
  'planSubmission',
  'planRetryFailed',
])
const FILE_CALL_MAX_BYTES = 64 * 1024 * 1024
const OTHER_CALL_MAX_BYTES = 1024 * 1024

/** Largest body a call of `verb` may have, in bytes. */
export function bodyLimitFor(verb: string): number {
  return VERBS_WITH_FILES.has(verb) ? FILE_CALL_MAX_BYTES : OTHER_CALL_MAX_BYTES
}

function tooLarge(verb: string) {
  return VERBS_WITH_FILES.has(verb)
    ? {
        code: 'invalid-arguments',
        message: 'That file is too large to send from a browser.',
        nextStep: 'Use the desktop app for files this large, or split the workbook.',
      }
    : {
        code: 'over-limit',
        message: 'That request is larger than Skill Runner takes from a browser.',
        nextStep: 'Reload the page and try again; if it happens again, use the desktop app.',
      }
}

/**
 * A refused body is read on and thrown away, up to this many bytes, before the 413 is sent: a
 * connection closed with bytes unread reaches a client still sending as a reset, and it never
 * reads the answer. Past the bound the answer is sent and the connection closed after it.
 */
const DISCARD_MAX_BYTES = 128 * 1024 * 1024

/**
 * The request's body, or null when it is larger than the limit: told by its Content-Length
 * before anything is read, or found while reading. A refused body is left flowing, for
 * `discardRest`.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      req.off('data', onData)
      chunks.length = 0
      resolve(null)
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks)))
    req.once('error', reject)
  })
}

/**
 * Reads the rest of a refused body and drops it. True once it has all come (or the connection
 * ended), false when it passed DISCARD_MAX_BYTES.
 */
function discardRest(req: IncomingMessage): Promise<boolean> {
  return new Promise((done) => {
    if (req.complete) return done(true)
    let dropped = 0
    const onData = (chunk: Buffer) => {
      dropped += chunk.length
      if (dropped > DISCARD_MAX_BYTES) finish(false)
    }
    const finish = (whole: boolean) => {
      req.off('data', onData)
      done(whole)
    }
    req.on('data', onData)
    req.once('end', () => finish(true))
    req.once('close', () => finish(true))
    req.resume()
  })
}

/** The 413 answer, once the refused body is out of the way. */
async function refuseTooLarge(req: IncomingMessage, res: ServerResponse, verb: string) {
  const whole = await discardRest(req)
  if (!whole) res.once('finish', () => req.socket.destroy())
  sendJson(res, 413, { ok: false, error: tooLarge(verb) })
}

/** The verb named in the path, or null when its percent-encoding is broken. */
function verbOf(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return null
  }
}

/** True when the call may go on; otherwise it has been refused with 405 or 403. */
function callAllowed(endpoint: BridgeEndpoint, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST') {
    sendJson(res, 405, { ok: false, error: forbiddenError })
    return false
  }
  if (!endpoint.gate.originOk(req)) {
    endpoint.refused(`bridge call from origin ${req.headers.origin ?? '(none)'}`)
    sendJson(res, 403, { ok: false, error: forbiddenError })
    return false
  }
  const header = req.headers[WEB_SECRET_HEADER]
  if (!endpoint.gate.secretMatches(typeof header === 'string' ? header : undefined)) {
    endpoint.refused('bridge call without the secret')
    sendJson(res, 403, { ok: false, error: forbiddenError })
    return false
  }
  return true
}

export async function handleBridgeCall(
  endpoint: BridgeEndpoint,
  req: IncomingMessage,
  res: ServerResponse,
  encodedVerb: string,
): Promise<void> {
  if (!callAllowed(endpoint, req, res)) return
  const verb = verbOf(encodedVerb)
  if (verb === null) {
    return sendJson(res, 400, {
      ok: false,
      error: invalidArguments({ _: 'The address of the request is not valid.' }),
    })
  }
  const type = req.headers['content-type'] ?? ''
  if (!type.toLowerCase().startsWith('application/json')) {
    return sendJson(res, 415, {
      ok: false,
      error: invalidArguments({ _: 'Requests must be JSON.' }),
    })
  }
  const body = await readBody(req, bodyLimitFor(verb))
  if (body === null) return refuseTooLarge(req, res, verb)
  let args: unknown
  try {
    args = body.length ? JSON.parse(body.toString('utf8')) : {}
  } catch {
    return sendJson(res, 400, {
      ok: false,
      error: invalidArguments({ _: 'The request was not valid JSON.' }),
    })
  }
  const result = await endpoint.dispatch(verb, args, { transport: 'http' })
  sendJson(res, 200, result)
}
