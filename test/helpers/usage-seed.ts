/**
 * Bea's sandbox with runs over several months (the seed's pastRuns): each past run is of the Echo
 * template (3 credits a row) or the Ad copy listing (4 credits a row), ended some days before now.
 */
import type { SandboxOptions, SeedFile } from '../../src/sandbox'
import { BUYER_TOKEN, LISTING_ID, buyerSeed } from './buyer-seed'

const DAY = 86_400

/**
 * `unix`, or the first second of today when `unix` is earlier: a run "an hour ago" stays today's
 * (and this month's) when the test runs just after midnight.
 */
export function today(unix: number): number {
  return Math.max(unix, Math.floor(new Date().setHours(0, 0, 0, 0) / 1000) + 1)
}

/** A past run of Bea's that ended `daysAgo` days before `nowUnix`, one of each kind in turn. */
export function pastRun(nowUnix: number, daysAgo: number, rows: number, listing = false) {
  const completedAtUnix = nowUnix - daysAgo * DAY
  const createdAtUnix = completedAtUnix - 600
  return {
    ownerUserId: 2,
    ...(listing ? { listingId: LISTING_ID } : { templateId: 'tpl-echo' }),
    rows,
    createdAtUnix: daysAgo === 0 ? today(createdAtUnix) : createdAtUnix,
    completedAtUnix,
  }
}

/** Runs of both kinds over the last `days` days, one every `every` days, ending today. */
export function pastRunsOver(nowUnix: number, days: number, every = 3) {
  const runs = []
  for (let ago = 0, i = 0; ago < days; ago += every, i++) {
    runs.push(pastRun(nowUnix, ago, 2 + (i % 4), i % 2 === 1))
  }
  return runs
}

export function usageSandbox(pastRuns: NonNullable<SeedFile['pastRuns']>): SandboxOptions {
  return { seed: { ...buyerSeed, pastRuns }, tokens: [BUYER_TOKEN] }
}
