/**
 * The Bridge over HTTP: `POST /bridge/<verb>` with a JSON body of the verb's arguments, answered
 * with the Bridge's `{ ok, value | error }`. A call must come from this server's own origin and
 * carry the secret in its header (the page's cookie is not enough: any page can make a browser
 * send cookies), and its body has a size limit.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  WEB_SECRET_HEADER,
  forbiddenError,
  invalidArguments,
  type Dispatch,
} from '../shared/bridge'
import { sendJson } from './http-answers'
import type { RequestGate } from './request-gate'

export interface BridgeEndpoint {
  gate: RequestGate
  dispatch: Dispatch
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number
  refused: (reason: string) => void
}

const tooLarge = {
  code: 'invalid-arguments',
  message: 'That file is too large to send from a browser.',
  nextStep: 'Use the desktop app for files this large, or split the workbook.',
}

/** The request's body, or null as soon as it grows past the limit. */
async function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBodyBytes) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
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
  verb: string,
): Promise<void> {
  if (!callAllowed(endpoint, req, res)) return
  const type = req.headers['content-type'] ?? ''
  if (!type.toLowerCase().startsWith('application/json')) {
    return sendJson(res, 415, {
      ok: false,
      error: invalidArguments({ _: 'Requests must be JSON.' }),
    })
  }
  const body = await readBody(req, endpoint.maxBodyBytes)
  if (body === null) return sendJson(res, 413, { ok: false, error: tooLarge })
  let args: unknown
  try {
    args = body.length ? JSON.parse(body.toString('utf8')) : {}
  } catch {
    return sendJson(res, 400, {
      ok: false,
      error: invalidArguments({ _: 'The request was not valid JSON.' }),
    })
  }
  const result = await endpoint.dispatch(decodeURIComponent(verb), args, { transport: 'http' })
  sendJson(res, 200, result)
}
