/**
 * validateWorkbook: reads the workbook bytes a buyer sends and checks every row against the
 * listing's input schema, answering the spec's validation result.
 */
import { validateWorkbookBodySchema } from '../shared/contract'
import type { Answer, Call, SandboxContext } from './context'
import { findVisibleListing, requireExecutable } from './api-runs'
import { HttpError, badRequest, readJsonBody, validateBody } from './http'
import { previousAnswer, requestHash, type IdempotencyKey } from './idempotency'

export async function validateWorkbookHandler(ctx: SandboxContext, call: Call): Promise<Answer> {
  const listingId = call.params[0]!
  const { listing } = findVisibleListing(ctx.db, call.user.userId, listingId)
  const body = validateBody(
    validateWorkbookBodySchema,
    await readJsonBody(call.req, ctx.maxBodyBytes),
  )
  if (body.confirm !== true) {
    throw badRequest('confirm must be true to validate a workbook for execution.')
  }
  const key: IdempotencyKey = {
    userId: call.user.userId,
    endpoint: 'validateWorkbook',
    clientRequestId: body.clientRequestId,
    requestHash: requestHash(listingId, body),
  }
  const previous = previousAnswer(ctx.db, key)
  if (previous) return previous
  requireExecutable(listing, body.listingVersionId)
  throw new HttpError(501, 'The sandbox cannot read workbooks yet.')
}
