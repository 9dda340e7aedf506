/**
 * Handlers that create runs: runRows (official templates) and execute (marketplace listings).
 * Both are idempotent by clientRequestId; the run list and detail are in api-run-reads.ts.
 */
import {
  executeBodySchema,
  runRowsBodySchema,
  type ExecutionResult,
  type RunRowsAcceptance,
} from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import { badRequest, readJsonBody, validateBody } from './http'
import { previousAnswer, rememberAnswer, requestHash, type IdempotencyKey } from './idempotency'
import { acceptRows, checkCallbackUrl, insertRun } from './run-creation'
import {
  findOfficialTemplate,
  findVisibleListing,
  listingSource,
  officialSource,
  requireExecutable,
} from './run-targets'
import { marketContextOf } from './serialize'

function readJson(ctx: SandboxContext, call: Call): Promise<unknown> {
  return readJsonBody(call.req, ctx.maxBodyBytes, ctx.bodyBudget)
}

export async function runRowsHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const templateId = call.params[0]!
  const source = officialSource(findOfficialTemplate(ctx.db, templateId))
  const body = validateBody(runRowsBodySchema, await readJson(ctx, call))
  const { key, previous } = earlier(ctx, call, 'runRows', templateId, body)
  if (previous) return previous
  const callbackUrl = checkCallbackUrl(body.callbackUrl)
  const rows = acceptRows(ctx.db, call.user.userId, source.schema, body.rows, {
    listName: 'rows',
    maxRows: ctx.maxRows,
  })
  return createOnce(ctx, key, () => {
    const created = insertRun(ctx.db, { userId: call.user.userId, source, callbackUrl, rows })
    const acceptance: RunRowsAcceptance = {
      acceptedAtUnix: created.created_at_unix,
      runId: created.run_id,
      status: created.status,
    }
    return { status: 202, body: acceptance }
  })
}

export async function executeHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const listingId = call.params[0]!
  const { row, listing, schema } = findVisibleListing(ctx.db, call.user.userId, listingId)
  const body = validateBody(executeBodySchema, await readJson(ctx, call))
  if (body.confirm !== true) {
    throw badRequest(
      'confirm must be true: the buyer has to confirm the execution and its cost before anything is charged.',
    )
  }
  const { key, previous } = earlier(ctx, call, 'execute', listingId, body)
  if (previous) return previous
  requireExecutable(listing, body.listingVersionId)
  const rows = acceptRows(ctx.db, call.user.userId, schema, body.inputRows, {
    listName: 'inputRows',
    maxRows: ctx.maxRows,
  })
  return createOnce(ctx, key, () => {
    const created = insertRun(ctx.db, {
      userId: call.user.userId,
      source: listingSource(row, listing, schema),
      callbackUrl: '',
      rows,
    })
    const result: ExecutionResult = marketContextOf(created) as ExecutionResult
    return { status: 200, body: result }
  })
}

/**
 * The request's idempotency key (its user, endpoint, clientRequestId and the hash of its target
 * and body), and the answer already given under that key, if any.
 */
function earlier(
  ctx: SandboxContext,
  call: Call,
  endpoint: IdempotencyKey['endpoint'],
  targetId: string,
  body: { clientRequestId: string },
) {
  const key: IdempotencyKey = {
    userId: call.user.userId,
    endpoint,
    clientRequestId: body.clientRequestId,
    requestHash: requestHash(targetId, body),
  }
  return { key, previous: previousAnswer(ctx.db, key) }
}

/**
 * Creates the run and remembers its answer under `key` in one transaction, so a request sent
 * again with the same id gets the same answer and never a second run; then wakes the scheduler.
 */
function createOnce(ctx: SandboxContext, key: IdempotencyKey, create: () => Answer): Answer {
  const answer = ctx.db.transaction((): Answer => {
    const created = create()
    rememberAnswer(ctx.db, key, created)
    return created
  })()
  ctx.scheduler.kick()
  return answer
}
