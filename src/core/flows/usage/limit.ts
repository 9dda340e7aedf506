/**
 * The monthly spending limit: a promise of this computer, not of the service. This month's
 * spending is the finished runs' actual cost plus the estimate of runs still going (from the
 * service's runs list, every computer's runs); a paid send whose estimate would take it past the
 * limit is refused. Every paid path reaches it through the one consent they share: the plan's
 * description says where the month stands (`describe-plan.ts`, the plan view) and the send keeps
 * it (`confirm.ts`).
 */
import { formatAmount, leftT, sumT, type AmountT } from '../../../shared/format/amounts'
import { monthSpending } from '../../../shared/usage/figures'
import { EngineError } from '../../errors'
import type { Connection } from '../../environments/connection'
import type { Usage } from './usage'

/** From this share of the limit on, the confirm step and the Usage screen say what is left. */
export const NEARLY_SHARE = 0.8

/** Where this month stands against the limit, before and after a send. */
export interface LimitStanding {
  limitT: AmountT
  /** "2026-11", in this computer's time zone. */
  month: string
  /** This month's spending so far: finished runs' actual cost plus running runs' estimates. */
  spentT: AmountT
  leftT: AmountT
  /** The send's estimate (null: not known before the run). */
  estimateT: AmountT | null
  /** The send would take the month past the limit (or the limit is reached already). */
  over: boolean
  /** The month would be at 80% of the limit or more. */
  nearly: boolean
  /** Why the service's runs could not be read now (the runs kept from before were counted). */
  offline: string | null
}

/** What a send tells the limit about itself: a plan has all of these. */
export interface LimitedSend {
  connection: Pick<Connection, 'name' | 'historyKey' | 'client' | 'unitLabel'>
  estimateT: AmountT | null
  pilotRows: number | null
}

export interface LimitClock {
  nowMs?: number
  /** This computer's time zone unless given. */
  timeZone?: string
}

export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

/** The standing of a month's spending against a limit, for a send of `estimateT`. */
export function standingOf(
  spending: { month: string; finishedT: number; runningT: number },
  limitT: AmountT,
  estimateT: AmountT | null,
  offline: string | null = null,
): LimitStanding {
  const spentT = sumT([spending.finishedT, spending.runningT])
  const afterT = sumT([spentT, estimateT ?? 0])
  return {
    limitT,
    month: spending.month,
    spentT,
    leftT: leftT(limitT, spentT),
    estimateT,
    over: afterT > limitT || spentT >= limitT,
    nearly: afterT >= limitT * NEARLY_SHARE,
    offline,
  }
}

/** The standing for a send on an environment, reading its runs; null without a limit. */
export async function monthlyLimitStanding(
  usage: Pick<Usage, 'limit' | 'read'>,
  send: LimitedSend,
  clock: LimitClock = {},
): Promise<LimitStanding | null> {
  const limitT = usage.limit(send.connection.name)
  if (limitT === null) return null
  const read = await usage.read(send.connection)
  const spending = monthSpending(
    read.runs,
    clock.nowMs ?? Date.now(),
    clock.timeZone ?? localTimeZone(),
  )
  return standingOf(spending, limitT, send.estimateT, read.offline)
}

/** "12 of your monthly limit of 100 credits are spent this month; 88 credits are left." */
export function limitWords(standing: LimitStanding, unitLabel: string): string {
  const cost = (t: number) => formatAmount(t, unitLabel)
  const parts = [
    `This month ${cost(standing.spentT)} of this environment’s monthly limit of ${cost(standing.limitT)} is spent or on its way; ${cost(standing.leftT)} left.`,
  ]
  if (standing.over) parts.push('This send would pass it, so it is not sent.')
  else if (standing.estimateT !== null) {
    parts.push(
      `After this send, about ${cost(leftT(standing.leftT, standing.estimateT))} would be left.`,
    )
  }
  parts.push('The limit is kept by this computer, not by the service.')
  return parts.join(' ')
}

/** Throws (spending nothing) when the send would pass the limit. */
export function refuseOverLimit(standing: LimitStanding, send: LimitedSend): void {
  const cost = (t: number) => formatAmount(t, send.connection.unitLabel)
  const limit = `this environment’s monthly limit of ${cost(standing.limitT)}`
  const left = `${cost(standing.leftT)} of it is left this month`
  const where = 'raise the monthly limit in this environment’s settings'
  if (standing.over) {
    const estimate =
      standing.estimateT === null ? '' : `the estimate of ${cost(standing.estimateT)} would pass `
    throw new EngineError(
      'over-limit',
      `Nothing was sent: ${estimate || 'this month’s spending has reached '}${limit}; ${left}.`,
      `Send fewer rows, wait for next month, or ${where}.`,
      { action: 'change-monthly-limit' },
    )
  }
  if (standing.estimateT === null && send.pilotRows === null) {
    throw new EngineError(
      'over-limit',
      `Nothing was sent: the cost of these rows is not known before the run, so ${limit} cannot be kept; ${left}.`,
      `Send a pilot of one row first to learn the cost per row, or ${where}.`,
      { action: 'send-pilot' },
    )
  }
}

/** What keeping the limit needs of the engine. */
export interface LimitServices {
  usage: Pick<Usage, 'limit' | 'read'>
}

/** The send's check: reads this month's spending and refuses a send that would pass the limit. */
export async function keepMonthlyLimit(services: LimitServices, send: LimitedSend): Promise<void> {
  const standing = await monthlyLimitStanding(services.usage, send)
  if (standing) refuseOverLimit(standing, send)
}

/** A copy of the plan with where the month stands, for its description (the send checks again). */
export async function withMonthlyLimit<P extends LimitedSend>(
  services: LimitServices,
  plan: P,
): Promise<P & { monthlyLimit: LimitStanding | null }> {
  return { ...plan, monthlyLimit: await monthlyLimitStanding(services.usage, plan) }
}
