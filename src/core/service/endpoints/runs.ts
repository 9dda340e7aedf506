/** Runs: the user's runs, a page at a time or all of them, and one run's detail. */
import {
  PAGE_LIMITS,
  QUERY,
  paths,
  runDetailSchema,
  runListSchema,
  type RunDetail,
  type RunList,
  type RunSummary,
} from '../../../shared/contract'
import { paginate } from '../paginate'
import { readRunDetail } from '../run-detail-reader'
import { pageQuery, type PageRequest } from './calls'
import type { CallOptions, Transport } from '../transport'

export interface RunsQuery extends PageRequest {
  status?: string | undefined
  orderBy?: string | undefined
}

export type AllRunsQuery = Omit<RunsQuery, 'pageToken' | 'pageSize'> & {
  limit?: number | undefined
}

export function listRuns(
  transport: Transport,
  query: RunsQuery = {},
  options?: CallOptions,
): Promise<RunList> {
  const q = QUERY.runs
  const filters = { [q.status]: query.status, [q.orderBy]: query.orderBy }
  return transport.request(
    {
      name: 'runs',
      path: paths.runs(),
      answer: runListSchema,
      query: pageQuery(q, query, PAGE_LIMITS.runs.max, filters),
    },
    options,
  )
}

/** Every run (newest first) up to `limit`, following page tokens. */
export function listAllRuns(
  transport: Transport,
  query: AllRunsQuery = {},
  options?: CallOptions,
): Promise<{ items: RunSummary[]; totalCount: number }> {
  const { limit, ...filter } = query
  return paginate<RunSummary>(
    ({ pageToken, pageSize }) => listRuns(transport, { ...filter, pageSize, pageToken }, options),
    { limit, maxPageSize: PAGE_LIMITS.runs.max },
  )
}

/** One run's detail: read by readRunDetail, which spares a big run's zod parse at every look. */
export function run(
  transport: Transport,
  runId: string,
  options?: CallOptions,
): Promise<RunDetail> {
  return transport.request(
    { name: 'run', path: paths.run(runId), answer: runDetailSchema, quick: readRunDetail },
    options,
  )
}
