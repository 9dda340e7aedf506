/**
 * Idempotent requests (DESIGN.md): a POST with a clientRequestId answers the first answer again
 * when the same user resends the same request, and 409 when the id comes back with a different
 * request. Ids are kept in SQLite for a week (DESIGN asks for at least 24 hours).
 */
import { createHash } from 'node:crypto'
import { type Db, getRow, run } from './db'
import { conflict } from './http'

export const IDEMPOTENCY_KEEP_MS = 7 * 24 * 60 * 60 * 1000

export interface IdempotencyKey {
  userId: number
  /** The endpoint name, e.g. `execute`. */
  endpoint: string
  clientRequestId: string
  /** Hash of the target (listing or template id) and the request body. */
  requestHash: string
}

export interface StoredAnswer {
  status: number
  body: unknown
}

/** JSON with object keys sorted, so the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function requestHash(target: string, body: unknown): string {
  return createHash('sha256').update(target).update('\n').update(canonical(body)).digest('hex')
}

/**
 * The answer stored for this id, or undefined when the id is new. Throws 409 when the id was
 * used for a different request.
 */
export function previousAnswer(db: Db, key: IdempotencyKey): StoredAnswer | undefined {
  const row = getRow<{ request_hash: string; status_code: number; response_json: string }>(
    db,
    `SELECT request_hash, status_code, response_json FROM idempotency
     WHERE user_id = ? AND endpoint = ? AND client_request_id = ?`,
    key.userId,
    key.endpoint,
    key.clientRequestId,
  )
  if (!row) return undefined
  if (row.request_hash !== key.requestHash) {
    throw conflict(
      `clientRequestId "${key.clientRequestId}" was already used for a different ${key.endpoint} request. ` +
        'Resend the first request unchanged, or use a new clientRequestId for a new request.',
    )
  }
  return { status: row.status_code, body: JSON.parse(row.response_json) as unknown }
}

export function rememberAnswer(db: Db, key: IdempotencyKey, answer: StoredAnswer): void {
  run(
    db,
    `INSERT INTO idempotency
       (user_id, endpoint, client_request_id, request_hash, status_code, response_json, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    key.userId,
    key.endpoint,
    key.clientRequestId,
    key.requestHash,
    answer.status,
    JSON.stringify(answer.body),
    Date.now(),
  )
}

export function forgetOldAnswers(db: Db, now = Date.now()): void {
  run(db, 'DELETE FROM idempotency WHERE created_at_ms < ?', now - IDEMPOTENCY_KEEP_MS)
}
