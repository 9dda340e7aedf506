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
import { clampPageSize, paginate } from '../paginate'
import type { CallOptions, Transport } from '../transport'

export interface RunsQuery {
  status?: string | undefined
  pageSize?: number | undefined
  pageToken?: string | undefined
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
  return transport.request(
    {
      name: 'runs',
      path: paths.runs(),
      answer: runListSchema,
      query: {
        [q.status]: query.status,
        [q.pageSize]: clampPageSize(query.pageSize, PAGE_LIMITS.runs.max),
        [q.pageToken]: query.pageToken,
        [q.orderBy]: query.orderBy,
      },
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

export function run(
  transport: Transport,
  runId: string,
  options?: CallOptions,
): Promise<RunDetail> {
  return transport.request(
    { name: 'run', path: paths.run(runId), answer: runDetailSchema },
    options,
  )
}
