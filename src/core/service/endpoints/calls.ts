/**
 * The shapes most endpoints share, so a tag's module says only what differs: a GET of one
 * resource by its id, a POST of a JSON body to one, and the query of one page of a list.
 */
import type * as z from 'zod'
import type { EndpointName } from '../../../shared/contract'
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

/** A POST of `body` as JSON to the resource `path(id)` names. */
export function postJsonTo<S extends z.ZodType, B>(
  name: EndpointName,
  path: (id: string) => string,
  answer: S,
): (transport: Transport, id: string, body: B, options?: CallOptions) => Promise<z.infer<S>> {
  return (transport, id, body, options) =>
    transport.request({ name, path: path(id), answer, body: { json: body } }, options)
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
