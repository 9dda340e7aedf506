/**
 * A plan with more rows than the service takes in one request goes as parts: runs of one batch,
 * sent in order under the one consent. Each part is journaled with its own request id, under a
 * fingerprint that is the plan's followed by its rows (`<fingerprint>:<start>-<end>`), so a
 * confirm made again after a crash finds the parts already journaled: an accepted one is not
 * sent again, an unanswered one is sent again with its own request id, and only the rows no part
 * holds become new parts. A part refused by a lower limit is split at the limit the refusal names
 * (send-parts.ts).
 */
import { amountT, formatAmount, plural, shareT } from '../../../shared/format/amounts'
import type { PartRange, Plan, PlanPart, PlanParts } from './plan'
import type { RowLimits } from './row-limits'
import type { Submission, Submissions } from './submissions'

export type PartServices = {
  submissions: Pick<Submissions, 'partsOf'>
  rowLimits: Pick<RowLimits, 'of'>
}

/** The fingerprint of one part of the plan whose fingerprint is `of`. */
export function partFingerprint(of: string, range: PartRange): string {
  return `${of}:${range.start}-${range.end}`
}

/** The rows a part's fingerprint names, or null when it is not a part of `of`. */
export function rangeOfPart(of: string, fingerprint: string): PartRange | null {
  if (!fingerprint.startsWith(`${of}:`)) return null
  const match = /^(\d{1,9})-(\d{1,9})$/.exec(fingerprint.slice(of.length + 1))
  if (!match) return null
  const start = Number(match[1])
  const end = Number(match[2])
  return end > start ? { start, end } : null
}

/** Ranges of at most `size` rows from `start` up to `end`. */
export function splitRange(range: PartRange, size: number): PartRange[] {
  const out: PartRange[] = []
  for (let start = range.start; start < range.end; start += size)
    out.push({ start, end: Math.min(start + size, range.end) })
  return out
}

/**
 * The parts of `total` rows: the parts journaled before where they lie (an unanswered one
 * before an accepted one of the same rows, then the newest), and new ones of at most `size`
 * rows in the gaps between them.
 */
export function partsOver(
  total: number,
  size: number,
  earlier: { range: PartRange; entry: Submission }[],
): PlanPart[] {
  const byStart = new Map<number, { range: PartRange; entry: Submission }>()
  for (const part of earlier) {
    if (part.range.end > total) continue
    const kept = byStart.get(part.range.start)
    const unanswered = part.entry.state === 'pending' || part.entry.state === 'sent'
    const keptUnanswered = kept && (kept.entry.state === 'pending' || kept.entry.state === 'sent')
    if (!kept || (!keptUnanswered && (unanswered || part.entry.id > kept.entry.id)))
      byStart.set(part.range.start, part)
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b)
  const parts: PlanPart[] = []
  let at = 0
  while (at < total) {
    const found = byStart.get(at)
    if (found) {
      parts.push({ ...found.range, entry: found.entry })
      at = found.range.end
      continue
    }
    const next = starts.find((s) => s > at) ?? total
    for (const range of splitRange({ start: at, end: next }, size))
      parts.push({ ...range, entry: null })
    at = next
  }
  return parts
}

/**
 * The parts a plan goes as, or null when it goes whole: no limit known and no part journaled
 * before, or no more rows than the limit.
 */
export function partsOfPlan(services: PartServices, plan: Plan): PlanParts | null {
  const historyKey = plan.connection.historyKey
  const limit = services.rowLimits.of(historyKey)
  const earlier = plan.fingerprint
    ? services.submissions.partsOf(historyKey, plan.fingerprint).flatMap((entry) => {
        const range = rangeOfPart(plan.fingerprint, entry.fingerprint)
        return range ? [{ range, entry }] : []
      })
    : []
  const total = plan.rows.length
  if (earlier.length === 0 && (!limit || total <= limit.rows)) return null
  const size = limit?.rows ?? Math.max(...earlier.map((e) => e.range.end - e.range.start))
  return { size, source: limit?.source ?? 'learnt', parts: partsOver(total, size, earlier) }
}

/**
 * The plan with its parts, for its description: parts accepted before make it a resume (their
 * rows are not "paid before", and all of them accepted make it a duplicate), an unanswered part
 * is said to be sent again with its own request id.
 */
export function withParts(services: PartServices, plan: Plan): Plan {
  if (!plan.id || !plan.validation.valid) return plan
  const parts = partsOfPlan(services, plan)
  if (!parts) return plan
  const accepted = parts.parts.flatMap((p) => (p.entry?.state === 'accepted' ? [p.entry] : []))
  const unanswered = parts.parts.find((p) => p.entry && p.entry.state !== 'accepted')?.entry
  const own = new Set(accepted.map((e) => e.runId))
  const paidBefore = plan.paidBefore?.runIds.every((id) => own.has(id)) ? null : plan.paidBefore
  return {
    ...plan,
    parts,
    paidBefore,
    duplicateOf: accepted.length === parts.parts.length ? accepted[0]! : plan.duplicateOf,
    unansweredOf: unanswered ?? plan.unansweredOf,
  }
}

/** The first part, when every part of the plan was accepted before (a duplicate); else null. */
export function allPartsSent(services: PartServices, plan: Plan): Submission | null {
  const parts = partsOfPlan(services, plan)?.parts
  if (!parts?.every((p) => p.entry?.state === 'accepted')) return null
  return parts[0]?.entry ?? null
}

/** A part's share of the plan's estimate, so the parts add up to it exactly (null: unknown). */
export function partEstimate(plan: Pick<Plan, 'estimateT' | 'rows'>, range: PartRange) {
  const whole = plan.estimateT
  if (whole === null) return null
  const share = (at: number) => shareT(whole, at, plan.rows.length, 'nearest')
  return amountT(share(range.end) - share(range.start))
}

/**
 * "15 rows go as 3 parts of at most 5 …; the whole cost is …", and the parts sent before (named
 * by run id for the command line; the window names no run ids).
 */
export function partsWords(plan: Plan, options: { runIds: boolean } = { runIds: true }): string {
  const parts = plan.parts
  if (!parts) return ''
  const count = parts.parts.length
  const where =
    parts.source === 'set'
      ? 'the most set for this environment'
      : 'the most the service takes at once'
  const cost =
    plan.estimateT === null
      ? 'the whole cost is known only once they have run'
      : `the whole cost is ${formatAmount(plan.estimateT, plan.connection.unitLabel)}`
  const words = [
    `${plural(plan.rows.length, 'row')} go as ${plural(count, 'part')} of at most ${parts.size.toLocaleString('en-US')} rows (${where}), each its own run, sent one after another under this one confirmation; ${cost}.`,
  ]
  const sent = parts.parts.filter((p) => p.entry?.state === 'accepted')
  if (sent.length > 0 && sent.length < count) {
    const runs = options.runIds ? ` (${sent.map((p) => p.entry!.runId).join(', ')})` : ''
    words.push(
      `${sent.length === 1 ? '1 part was' : `${sent.length} parts were`} sent before${runs} and ${sent.length === 1 ? 'is' : 'are'} not sent again.`,
    )
  }
  return words.join(' ')
}
