/**
 * The shapes most endpoints share, so a tag's module says only what differs: a GET of one
 * resource by its id, a POST of a body of rows to one, and the query of one page of a list.
 */
import type * as z from 'zod'
import type { EndpointName } from '../../../shared/contract'
import { arrayJsonBody, type JsonTexts } from '../bodies'
import { clampPageSize } from '../paginate'
import type { CallOptions, Transport } from '../transport'

/** A GET of the resource `path(id)` names, its answer read with the contract's schema. */
export function getById<S extends z.ZodType>(
  name: EndpointName,
  path: (id: string) => string,
  answer: S,
): (transport: Transport, id: string, options?: CallOptions) => Promise<z.infer<S>> {
  return (transport, id, options) => transport.request({ name, path: path(id), answer }, options)
}

/** A body whose array `K` may come as the texts its items were kept as. */
export type WithTexts<B, K extends keyof B> = Omit<B, K> & { [P in K]: B[P] | JsonTexts }

/**
 * A POST of `body` to the resource `path(id)` names, its array `key` (a run's rows) streamed a
 * few items at a time (bodies.ts), never built as one text.
 */
export function postRowsTo<S extends z.ZodType, B extends object, K extends keyof B & string>(
  name: EndpointName,
  path: (id: string) => string,
  answer: S,
  key: K,
): (
  transport: Transport,
  id: string,
  body: WithTexts<B, K>,
  options?: CallOptions,
) => Promise<z.infer<S>> {
  return (transport, id, body, options) =>
    transport.request(
      { name, path: path(id), answer, body: arrayJsonBody(body as Record<string, unknown>, key) },
      options,
    )
}

export interface PageRequest {
  pageSize?: number | undefined
  pageToken?: string | undefined
}

/**
 * The query of one page of a list: its filters, then its page size (never over the list's
 * `max`) and its token, each under the name the interface gives it.
 */
export function pageQuery(
  names: { pageSize: string; pageToken: string },
  page: PageRequest,
  max: number,
  filters: Record<string, string | undefined>,
): Record<string, string | number | undefined> {
  return {
    ...filters,
    [names.pageSize]: clampPageSize(page.pageSize, max),
    [names.pageToken]: page.pageToken,
  }
}
