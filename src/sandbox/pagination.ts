/**
 * Opaque page tokens. A token carries the position after the last item of a page, and is bound
 * to the user and the query that produced it (filter, search, order) with an HMAC, so a token
 * that was edited, belongs to someone else or to another query is a 400, never a wrong page.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import * as z from 'zod'
import { badRequest } from './http'

const payloadSchema = z.object({
  k: z.string(),
  u: z.number(),
  q: z.string(),
  a: z.array(z.union([z.string(), z.number()])),
})

export interface PageScope {
  /** Which list: 'runs' or 'listings'. */
  kind: string
  userId: number
  /** The query that must stay the same between pages (filters and order). */
  query: string
}

export type PagePosition = (string | number)[]

const INVALID =
  'pageToken is not valid for this list. Send the nextPageToken of the previous page unchanged, with the same filters, or leave it out to start at the first page.'

export class PageTokens {
  constructor(private readonly secret: Buffer) {}

  private sign(body: string): Buffer {
    return createHmac('sha256', this.secret).update(body).digest()
  }

  encode(scope: PageScope, after: PagePosition): string {
    const body = Buffer.from(
      JSON.stringify({ k: scope.kind, u: scope.userId, q: scope.query, a: after }),
    ).toString('base64url')
    return `${body}.${this.sign(body).toString('base64url')}`
  }

  /** The position a token points after; 400 when it is not a token of this scope. */
  decode(token: string, scope: PageScope): PagePosition {
    const [body, signature, extra] = token.split('.')
    if (!body || !signature || extra !== undefined) throw badRequest(INVALID)
    const expected = this.sign(body)
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw badRequest(INVALID)
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
    } catch {
      throw badRequest(INVALID)
    }
    const payload = payloadSchema.safeParse(parsed)
    if (
      !payload.success ||
      payload.data.k !== scope.kind ||
      payload.data.u !== scope.userId ||
      payload.data.q !== scope.query
    ) {
      throw badRequest(INVALID)
    }
    return payload.data.a
  }
}

/** Reads `pageSize`: a whole number from 1 to `max`, `fallback` when absent. */
export function parsePageSize(
  raw: string | null,
  name: string,
  limits: { default: number; max: number },
): number {
  if (raw === null || raw.trim() === '') return limits.default
  if (!/^\d+$/.test(raw.trim())) {
    throw badRequest(`${name} must be a whole number from 1 to ${limits.max}; got "${raw}".`)
  }
  const size = Number(raw.trim())
  if (size < 1) throw badRequest(`${name} must be at least 1; got ${size}.`)
  if (size > limits.max) {
    throw badRequest(
      `${name} ${size} is above the maximum of ${limits.max}; ask for ${limits.max} or fewer.`,
    )
  }
  return size
}

/**
 * Collapses spaces and case so `createdAt  DESC` reads as `createdAt desc`; a field without a
 * direction is ascending, as in SQL.
 */
export function normalizeOrderBy(raw: string): string {
  const [fieldName = '', direction = 'asc', ...rest] = raw.trim().split(/\s+/)
  if (rest.length > 0) return raw.trim()
  return `${fieldName} ${direction.toLowerCase()}`
}
