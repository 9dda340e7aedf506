/**
 * Journaling and sending a confirmed plan: whole, or as parts (parts.ts) when it holds more
 * rows than the service takes in one request. Each part, in order, is journaled, joined to the
 * batch and only then sent; a part accepted before is not sent again, and a part refused with a
 * lower limit is split at it (the limit remembered for the environment) and its pieces sent in
 * its place. A part that fails otherwise stops the send: the parts sent stay sent, and the same
 * plan confirmed again sends only what is left.
 */
import { plural } from '../../../shared/format/amounts'
import { EngineError } from '../../errors'
import { UserFacingError } from '../../../shared/errors'
import type { BatchLink } from '../batch/batches'
import { partEstimate, partFingerprint, partsOfPlan, splitRange } from './parts'
import type { PartRange, Plan, SpendServices } from './plan'
import type { PlanRows } from './plan-rows'
import { limitInRefusal, type RowLimits } from './row-limits'
import type { ProgressHooks } from './submission-inputs'
import type { SubmissionHead } from './submissions'
import { defined } from '../../../shared/defined'

export type SendPlanServices = Pick<SpendServices, 'submissions' | 'batches'> & {
  rowLimits: Pick<RowLimits, 'of' | 'learn'>
}

interface Sending {
  plan: Plan
  /** The plan's rows with their file cells uploaded, read a part at a time. */
  rows: PlanRows
  /** The batch link each part joins (its id filled once the first part made the batch). */
  link: BatchLink | undefined
  /** The first part journaled: its workbook's hash and copy serve the others. */
  first: SubmissionHead | undefined
  split: boolean
}

/**
 * Journals the rows `range` of the plan (the whole plan when not split), read from the plan's
 * rows a few hundred at a time as they are written, and joins its batch.
 */
async function journalPart(
  services: SendPlanServices,
  s: Sending,
  range: PartRange,
): Promise<SubmissionHead> {
  const { plan } = s
  const whole = !s.split
  const entry = await services.submissions.journalRows(plan.connection, {
    target: plan.target,
    rows: s.rows.range(range.start, range.end),
    rowNumbers:
      plan.rowNumbering === 'spreadsheet'
        ? plan.rowNumbers.slice(range.start, range.end)
        : undefined,
    inputPath: plan.sheetFile || plan.file || undefined,
    inputOf: s.first,
    inputFilename: plan.fileName,
    retryOfRunId: plan.retryOfRunId ?? undefined,
    followUpOfRunId: plan.followsSetAsideOf,
    batchOfRunId: plan.batchOfRunId ?? undefined,
    workbookRows: plan.retryOfRunId ? undefined : plan.totalRows,
    fingerprint: whole ? plan.fingerprint : partFingerprint(plan.fingerprint, range),
    estimatedCostT: whole ? plan.estimateT : partEstimate(plan, range),
    // A redo is one even when its run belongs to no batch (History names it so).
    sendKind: plan.batch?.kind ?? (plan.redo ? 'redo' : undefined),
  })
  s.first ??= entry
  if (s.link) {
    const batchId = services.batches.join(entry, s.link)
    s.link = { ...s.link, batchId, ...(s.split ? { kind: 'part' as const } : {}) }
  }
  return entry
}

/** Journals and sends the plan, whole or in parts; answers every part's submission, in order. */
export async function sendPlan(
  services: SendPlanServices,
  plan: Plan,
  rows: PlanRows,
  options: { again: boolean; hooks: ProgressHooks },
): Promise<SubmissionHead[]> {
  const found = partsOfPlan(services, plan)
  const allSent = found?.parts.every((p) => p.entry?.state === 'accepted') ?? false
  // Sent again on purpose: every part anew, under new request ids.
  const planned = found?.parts.map((p) => (allSent && options.again ? { ...p, entry: null } : p))
  const s: Sending = {
    plan,
    rows,
    link: plan.batch && found ? { ...plan.batch, kind: 'part' } : plan.batch,
    first: undefined,
    split: found !== null,
  }
  // Each part is journaled when its turn comes, so the journal holds them in the order sent.
  const queue: { range: PartRange; entry: SubmissionHead | null }[] = (
    planned ?? [{ start: 0, end: rows.length, entry: null }]
  ).map((p) => ({ range: { start: p.start, end: p.end }, entry: p.entry }))
  const done: SubmissionHead[] = []
  while (queue.length > 0) {
    const next = queue.shift()!
    const range = next.range
    if (next.entry?.state === 'accepted') {
      done.push(next.entry)
      continue
    }
    // A part journaled before and still unanswered goes again with the rows it was journaled with.
    const entry = next.entry
      ? services.submissions.head(next.entry.id)
      : await journalPart(services, s, range)
    options.hooks.onStep?.(
      `sending ${plural(range.end - range.start, 'row')} (request ${entry.clientRequestId})`,
    )
    try {
      const { signal } = options.hooks
      done.push(await services.submissions.send(plan.connection, entry, defined({ signal })))
    } catch (error) {
      const limit = limitInRefusal(error)
      if (limit === null || limit >= range.end - range.start) throw stopped(error, done)
      // Refused for its size: nothing was made of it, so its rows go as smaller parts instead.
      services.rowLimits.learn(plan.connection.historyKey, limit)
      s.split = true
      if (s.link) s.link = { ...s.link, kind: 'part' }
      queue.unshift(...splitRange(range, limit).map((piece) => ({ range: piece, entry: null })))
    }
  }
  return done
}

/** A part's failure, with the parts already sent named, when there are any. */
function stopped(error: unknown, done: SubmissionHead[]): unknown {
  if (done.length === 0 || !(error instanceof UserFacingError)) return error
  const runs = done.map((d) => d.runId).join(', ')
  return new EngineError(
    error.category,
    `${done.length === 1 ? 'The first part was' : `The first ${done.length} parts were`} sent (${runs}); the next was not: ${error.message}`,
    `${error.nextStep} Then confirm the same rows again: the parts already sent are not sent again.`,
    { cause: error },
  )
}
