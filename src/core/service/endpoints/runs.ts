/** Runs: the user's runs, a page at a time or all of them, and one run's detail. */
import {
  PAGE_LIMITS,
  QUERY,
  paths,
  runListSchema,
  type Artifact,
  type RunDetail,
  type RunList,
  type RunSummary,
  type RunTask,
} from '../../../shared/contract'
import { paginate } from '../paginate'
import { RunDetailStream, type RunDetailHead, type RunDetailSink } from '../run-detail-stream'
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

/**
 * One run's detail, read as it arrives (run-detail-stream.ts): each task and output handed to
 * the sink `open` gives, made afresh for every attempt (a look cut midway starts again). Resolves
 * to the run's summary and market once the whole answer was read.
 */
export function readRun(
  transport: Transport,
  runId: string,
  open: () => RunDetailSink,
  options?: CallOptions,
): Promise<RunDetailHead> {
  return transport.stream(
    { name: 'run', path: paths.run(runId), open: () => new RunDetailStream(open()) },
    options,
  )
}

/** One run's detail, whole: its tasks and outputs kept in memory as they arrive. */
export async function run(
  transport: Transport,
  runId: string,
  options?: CallOptions,
): Promise<RunDetail> {
  let tasks: RunTask[] = []
  let artifacts: Artifact[] = []
  const head = await readRun(
    transport,
    runId,
    () => {
      tasks = []
      artifacts = []
      return { task: (task) => tasks.push(task), artifact: (artifact) => artifacts.push(artifact) }
    },
    options,
  )
  return { ...head, tasks, artifacts }
}
