/**
 * Maps requests to handlers. Route patterns are derived from the endpoint catalog's path
 * functions (src/shared/contract), so every path string is written once, there.
 */
import { endpoints, paths, type EndpointName } from '../shared/contract'
import type { Handler } from './context'
import {
  creatorListingsHandler,
  healthzHandler,
  marketListingHandler,
  modelsHandler,
  privateTemplateHandler,
  reviewRequestHandler,
  templateSchemaHandler,
  uploadHandler,
  versionHandler,
} from './api-catalog'
import { listRunsHandler, runDetailHandler } from './api-run-reads'
import { executeHandler, runRowsHandler } from './api-runs'
import { validateWorkbookHandler } from './api-workbook'
import { artifactContentHandler } from './artifact-content'
import { badRequest } from './http'
import { artifactContentPath } from './serialize'

export interface Route {
  name: string
  method: 'GET' | 'POST'
  auth: boolean
  /** The encoded path parameters when the raw path matches, else undefined. */
  match: (rawPath: string) => string[] | undefined
  handler: Handler
}

const MARK = 'zzPARAMzz'

/** A matcher for the paths a catalog path function makes: its parameters become segments. */
function matcherOf(pathFn: (...ids: string[]) => string, param = '[^/]+?'): Route['match'] {
  const template = pathFn(MARK, MARK)
  const pieces = template.split(MARK).map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const pattern = new RegExp(`^${pieces.join(`(${param})`)}$`)
  return (rawPath) => {
    const found = pattern.exec(rawPath)
    return found ? found.slice(1) : undefined
  }
}

const handlers: Record<EndpointName, Handler> = {
  healthz: healthzHandler,
  version: versionHandler,
  models: modelsHandler,
  marketListing: marketListingHandler,
  execute: executeHandler,
  validateWorkbook: validateWorkbookHandler,
  runRows: runRowsHandler,
  upload: uploadHandler,
  creatorListings: creatorListingsHandler,
  templateSchema: templateSchemaHandler,
  runs: listRunsHandler,
  run: runDetailHandler,
  privateTemplate: privateTemplateHandler,
  reviewRequest: reviewRequestHandler,
}

export const routes: Route[] = [
  ...(Object.keys(handlers) as EndpointName[]).map((name): Route => ({
    name,
    method: endpoints[name].method,
    auth: endpoints[name].auth,
    // A listing's own path must not swallow its `:execute` / `:validateWorkbook` actions.
    match: matcherOf(paths[name], name === 'marketListing' ? '[^/:]+' : undefined),
    handler: handlers[name],
  })),
  {
    name: 'artifactContent',
    method: 'GET',
    auth: true,
    match: matcherOf(artifactContentPath),
    handler: artifactContentHandler,
  },
]

export type RouteMatch =
  | { kind: 'found'; route: Route; params: string[] }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' }

export function findRoute(method: string, rawPath: string): RouteMatch {
  const allow: string[] = []
  for (const route of routes) {
    const params = route.match(rawPath)
    if (!params) continue
    const accepts = route.method === method || (route.method === 'GET' && method === 'HEAD')
    if (!accepts) {
      allow.push(route.method === 'GET' ? 'GET, HEAD' : route.method)
      continue
    }
    const decoded = params.map((param) => {
      try {
        return decodeURIComponent(param)
      } catch {
        throw badRequest(`The path segment "${param}" is not correctly percent-encoded.`)
      }
    })
    return { kind: 'found', route, params: decoded }
  }
  return allow.length ? { kind: 'wrong-method', allow } : { kind: 'none' }
}
