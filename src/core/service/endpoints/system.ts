/** System (and Models): is the service there, which version, does the token work. */
import { endpoints, modelsAnswerSchema, paths } from '../../../shared/contract'
import type { CallOptions, Transport } from '../transport'

export interface HealthAnswer {
  status: number
  ok: boolean
  body: unknown
}

/** GET /healthz: reachability only. Never throws for an HTTP status; only when unreachable. */
export function healthz(transport: Transport, options?: CallOptions): Promise<HealthAnswer> {
  return probe(transport, 'healthz', paths.healthz(), options)
}

/** GET /version. Never throws for an HTTP status; only when unreachable. */
export function version(transport: Transport, options?: CallOptions): Promise<HealthAnswer> {
  return probe(transport, 'version', paths.version(), options)
}

/** GET /svc/v1/models: the authenticated call that proves the token works. */
export function models(transport: Transport, options?: CallOptions): Promise<unknown> {
  return transport.request(
    { name: 'models', path: paths.models(), answer: modelsAnswerSchema },
    options,
  )
}

/**
 * A check whose status is the answer: any status is returned rather than thrown, and the body
 * may be JSON or plain text (the interface does not show it). No token is sent.
 */
async function probe(
  transport: Transport,
  name: 'healthz' | 'version',
  path: string,
  options?: CallOptions,
): Promise<HealthAnswer> {
  const answer = await transport.send(
    `GET ${path}`,
    endpoints[name].idempotent,
    options ?? {},
    () => ({
      url: transport.baseUrl + path,
      init: { method: 'GET', headers: { Accept: 'application/json, text/plain' } },
    }),
    /* acceptAnyStatus */ true,
  )
  let body: unknown = answer.text
  try {
    body = JSON.parse(answer.text)
  } catch {
    // plain text is a fine answer for a health check
  }
  return { status: answer.status, ok: answer.ok, body }
}
