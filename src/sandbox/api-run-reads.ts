/**
 * Handlers that read runs: the caller's run list (status filter, order, signed page tokens) and
 * one run's detail with its tasks and artifacts.
 */
import { PAGE_LIMITS, QUERY, RUN_STATUSES, RUNS_ORDER_BY } from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import { type ArtifactRow, type RunRow, type TaskRow, allRows, count, getRow } from './db'
import { badRequest, notFound } from './http'
import { normalizeOrderBy, parsePageSize } from './pagination'
import { artifactOf, expiryOf, marketContextOf, runSummaryOf, runTaskOf } from './serialize'

export function listRunsHandler(ctx: SandboxContext, call: Call): Answer {
  const q = call.url.searchParams
  const names = QUERY.runs
  const status = q.get(names.status)?.trim() || ''
  if (status && !(RUN_STATUSES as readonly string[]).includes(status)) {
    throw badRequest(
      `${names.status} "${status}" is not a run status; use one of ${RUN_STATUSES.join(', ')}.`,
    )
  }
  const pageSize = parsePageSize(q.get(names.pageSize), names.pageSize, PAGE_LIMITS.runs)
  const orderByRaw = q.get(names.orderBy)
  const orderBy = orderByRaw && orderByRaw.trim() ? normalizeOrderBy(orderByRaw) : RUNS_ORDER_BY[0]
  if (!(RUNS_ORDER_BY as readonly string[]).includes(orderBy)) {
    throw badRequest(
      `${names.orderBy} "${orderByRaw}" is not supported; use ${RUNS_ORDER_BY.map((o) => `"${o}"`).join(' or ')}.`,
    )
  }
  const descending = orderBy === 'createdAt desc'
  const scope = { kind: 'runs', userId: call.user.userId, query: JSON.stringify([status, orderBy]) }
  const token = q.get(names.pageToken) ?? ''
  let after: number | undefined
  if (token) {
    const position = ctx.pageTokens.decode(token, scope)
    if (position.length !== 1 || typeof position[0] !== 'number')
      throw badRequest('pageToken is not valid for this list.')
    after = position[0]
  }
  const where = ['user_id = ?']
  const params: unknown[] = [call.user.userId]
  if (status) {
    where.push('status = ?')
    params.push(status)
  }
  const totalCount = count(
    ctx.db,
    `SELECT count(*) AS n FROM runs WHERE ${where.join(' AND ')}`,
    ...params,
  )
  if (after !== undefined) {
    where.push(descending ? 'seq < ?' : 'seq > ?')
    params.push(after)
  }
  const rows = allRows<RunRow>(
    ctx.db,
    `SELECT * FROM runs WHERE ${where.join(' AND ')} ORDER BY seq ${descending ? 'DESC' : 'ASC'} LIMIT ?`,
    ...params,
    pageSize + 1,
  )
  const page = rows.slice(0, pageSize)
  const more = rows.length > pageSize
  return {
    status: 200,
    body: {
      items: page.map(runSummaryOf),
      nextPageToken: more ? ctx.pageTokens.encode(scope, [page[page.length - 1]!.seq]) : '',
      totalCount,
    },
  }
}

export function runDetailHandler(ctx: SandboxContext, call: Call): Answer {
  const runId = call.params[0]!
  const row = getRow<RunRow>(
    ctx.db,
    'SELECT * FROM runs WHERE run_id = ? AND user_id = ?',
    runId,
    call.user.userId,
  )
  if (!row) throw notFound(`There is no run "${runId}" among your runs.`)
  const tasks = allRows<TaskRow>(
    ctx.db,
    'SELECT * FROM tasks WHERE run_id = ? ORDER BY row_index',
    runId,
  )
  const artifacts = allRows<ArtifactRow>(
    ctx.db,
    'SELECT * FROM artifacts WHERE run_id = ? ORDER BY row_index, seq',
    runId,
  )
  const market = marketContextOf(row)
  return {
    status: 200,
    body: {
      run: runSummaryOf(row),
      // Present on every run, as the interface lists it; empty for a template run.
      market: market ?? {},
      tasks: tasks.map(runTaskOf),
      artifacts: artifacts.map((a) => artifactOf(a, call.origin, expiryOf(ctx))),
    },
  }
}
