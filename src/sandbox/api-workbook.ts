/**
 * validateWorkbook: reads the workbook bytes a buyer sends and checks every row against the
 * listing's input schema, answering the spec's validation result. The sandbox reads the file
 * with its own readers (workbooks/), not the app's: the tests then check two independent readers
 * against each other rather than one parser against itself.
 */
import { createHash } from 'node:crypto'
import { validateWorkbookBodySchema } from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import { findVisibleListing, requireExecutable } from './run-targets'
import { badRequest, readJsonBody, validateBody } from './http'
import { previousAnswer, rememberAnswer, requestHash, type IdempotencyKey } from './idempotency'
import { checkWorkbookOffThread } from './workbooks/check-off-thread'

/** The file bytes of `content`; zod would be slow on millions of numbers, so a plain loop. */
function contentBytes(value: unknown): Uint8Array {
  if (!Array.isArray(value)) {
    throw badRequest('content must be an array of byte values (integers from 0 to 255).')
  }
  const bytes = new Uint8Array(value.length)
  for (let i = 0; i < value.length; i += 1) {
    const byte: unknown = value[i]
    if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < 0 || byte > 255) {
      throw badRequest(
        `content[${i}] is ${JSON.stringify(byte)}; every item must be an integer from 0 to 255.`,
      )
    }
    bytes[i] = byte
  }
  return bytes
}

export async function validateWorkbookHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const listingId = call.params[0]!
  const { listing, schema } = findVisibleListing(ctx.db, call.user.userId, listingId)
  const raw = await readJsonBody(call.req, ctx.maxBodyBytes, ctx.bodyBudget)
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('The request body must be a JSON object.')
  }
  const { content, ...rest } = raw as { content?: unknown }
  const body = validateBody(validateWorkbookBodySchema, { ...rest, content: [] })
  if (content === undefined) throw badRequest('The request body is not valid: content is missing.')
  const bytes = contentBytes(content)
  if (body.confirm !== true) {
    throw badRequest('confirm must be true to validate a workbook for execution.')
  }
  const key: IdempotencyKey = {
    userId: call.user.userId,
    endpoint: 'validateWorkbook',
    clientRequestId: body.clientRequestId,
    // The bytes are hashed once, not as millions of JSON numbers.
    requestHash: requestHash(listingId, {
      ...body,
      content: createHash('sha256').update(bytes).digest('hex'),
    }),
  }
  const previous = previousAnswer(ctx.db, key)
  if (previous) return previous
  requireExecutable(listing, body.listingVersionId)
  const result = await checkWorkbookOffThread(bytes, body.filename, schema)
  // Another request with the same id may have finished while this one was reading the file.
  const raced = previousAnswer(ctx.db, key)
  if (raced) return raced
  const answer: Answer = { status: 200, body: result }
  rememberAnswer(ctx.db, key, answer)
  return answer
}
