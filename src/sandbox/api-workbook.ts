/**
 * validateWorkbook: reads the workbook bytes a buyer sends and checks every row against the
 * listing's input schema, answering the spec's validation result.
 */
import { createHash } from 'node:crypto'
import {
  validateWorkbookBodySchema,
  type ListingInputSchema,
  type WorkbookValidation,
} from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import { findVisibleListing, requireExecutable } from './api-runs'
import { badRequest, readJsonBody, validateBody } from './http'
import { parseInputWorkbook } from '../core/workbooks'
import { previousAnswer, rememberAnswer, requestHash, type IdempotencyKey } from './idempotency'

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

/**
 * Reads the workbook with the same parser and checks as the app (src/core/workbooks), in a
 * worker thread so that a large workbook does not hold up the other requests (the built-in
 * Sandbox shares the app's main process); file cells are references here, since the server
 * cannot see the buyer's disk.
 */
async function validateWorkbookBytes(
  bytes: Uint8Array,
  filename: string,
  schema: ListingInputSchema,
): Promise<WorkbookValidation> {
  const result = await parseInputWorkbook({ bytes, filename }, schema, {
    keepRows: false,
    checkFiles: false,
  })
  return { valid: result.valid, fileErrors: result.fileErrors, rowErrors: result.rowErrors }
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
  const result = await validateWorkbookBytes(bytes, body.filename, schema)
  // Another request with the same id may have finished while this one was reading the file.
  const raced = previousAnswer(ctx.db, key)
  if (raced) return raced
  const answer: Answer = { status: 200, body: result }
  rememberAnswer(ctx.db, key, answer)
  return answer
}
