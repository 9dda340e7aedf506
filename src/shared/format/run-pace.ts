/**
 * How long a run still needs, and whether it has stalled: pure functions of a run's summary, the
 * time now (passed in, so tests use a fake clock) and how fast earlier runs of the same template
 * or listing went. Every front door words them the same way (runs list, run detail, `--watch`).
 */
import type { RunSummary } from '../contract'
import { isTerminalStatus } from '../contract/statuses'
import { finishedRows, medianRowMs, NO_ROW_MARKS, type RowMarks } from './row-times'
import { formatMoment } from './time'

/** No row changing for this long is always a stall, however slow rows usually are. */
export const STALL_FLOOR_MS = 2 * 60 * 1000
/** ...and longer than this many typical row times. */
const STALL_FACTOR = 3

type PaceRun = Pick<
  RunSummary,
  | 'status'
  | 'totalTasks'
  | 'completedTasks'
  | 'failedTasks'
  | 'cancelledTasks'
  | 'createdAtUnix'
  | 'startedAtUnix'
  | 'completedAtUnix'
  | 'updatedAtUnix'
>

/** How fast earlier runs went: rows per minute, and the typical time between two rows. */
export interface EarlierPace {
  rowsPerMinute: number
  rowMs: number
}

export type PaceState = 'ended' | 'waiting' | 'moving' | 'stalled'

export interface RunPace {
  state: PaceState
  /** Minutes left at the current pace; null when it cannot be told yet. */
  minutesLeft: number | null
  /** "about 12 min left", "less than a minute left", '' when unknown or ended. */
  leftText: string
  /** How long no row has changed (ms); 0 when ended. */
  quietMs: number
  /** After how long without a change this run counts as stalled (ms). */
  stallAfterMs: number
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * One finished run's pace, as this computer's history keeps it: what it ran (a template or a
 * listing) and how fast it went.
 */
export interface PaceSample extends EarlierPace {
  runId: string
  templateKey: string
  listingId: string
}

/** The pace of a finished run, or null when it is not finished or its times say nothing. */
export function paceSample(
  run: Pick<RunSummary, 'runId' | 'templateKey' | 'market'> & PaceRun,
): PaceSample | null {
  if (!isTerminalStatus(run.status)) return null
  const rows = finishedRows(run)
  const ms = (run.completedAtUnix - (run.startedAtUnix || run.createdAtUnix)) * 1000
  if (rows <= 0 || ms <= 0) return null
  return {
    runId: run.runId,
    templateKey: run.templateKey,
    listingId: run.market?.listingId ?? '',
    rowsPerMinute: rows / (ms / 60_000),
    rowMs: ms / rows,
  }
}

/**
 * The pace of the finished runs that ran the same template or listing as `run` (the median of
 * theirs), from `runs` (those fetched) and `kept` (paces of earlier runs this computer's history
 * holds; a run in both counts once), or null when none did.
 */
export function earlierPace(
  run: Pick<RunSummary, 'runId' | 'templateKey' | 'market'>,
  runs: readonly RunSummary[],
  kept: readonly PaceSample[] = [],
): EarlierPace | null {
  return earlierPaces(runs, kept)(run)
}

/** The earlier runs' pace for one run of a list (see earlierPaces). */
export type PaceOf = (
  run: Pick<RunSummary, 'runId' | 'templateKey' | 'market'>,
) => EarlierPace | null

/**
 * `earlierPace` for many runs of one list: the samples are grouped by listing and by template
 * once, and each group's median worked out once, so a list of n runs costs n log n, not n².
 */
export function earlierPaces(
  runs: readonly RunSummary[],
  kept: readonly PaceSample[] = [],
): PaceOf {
  const byRun = new Map<string, PaceSample>()
  for (const sample of kept) byRun.set(sample.runId, sample)
  // A run fetched now is newer news than the history's copy of it.
  for (const other of runs) {
    const sample = paceSample(other)
    if (sample) byRun.set(sample.runId, sample)
  }
  const groups = new Map<string, PaceSample[]>()
  const add = (key: string, sample: PaceSample) => {
    const group = groups.get(key)
    if (group) group.push(sample)
    else groups.set(key, [sample])
  }
  for (const sample of byRun.values()) {
    if (sample.listingId) add(`listing:${sample.listingId}`, sample)
    if (sample.templateKey) add(`template:${sample.templateKey}`, sample)
  }
  const medians = new Map<string, EarlierPace | null>()
  return (run) => {
    const listingId = run.market?.listingId ?? ''
    const key = listingId
      ? `listing:${listingId}`
      : run.templateKey
        ? `template:${run.templateKey}`
        : ''
    const group = groups.get(key) ?? []
    // A finished run is not its own earlier run.
    const own = byRun.get(run.runId)
    if (own && group.includes(own)) return medianPace(group.filter((p) => p !== own))
    if (!medians.has(key)) medians.set(key, medianPace(group))
    return medians.get(key)!
  }
}

function medianPace(paces: readonly PaceSample[]): EarlierPace | null {
  if (paces.length === 0) return null
  return {
    rowsPerMinute: median(paces.map((p) => p.rowsPerMinute)),
    rowMs: median(paces.map((p) => p.rowMs)),
  }
}

/** "about 12 min left", "about 1 h 5 min left", "less than a minute left". */
export function minutesLeftText(minutes: number): string {
  if (minutes < 1) return 'less than a minute left'
  const whole = Math.ceil(minutes)
  if (whole < 60) return `about ${whole} min left`
  const hours = Math.floor(whole / 60)
  const rest = whole % 60
  return `about ${hours} h${rest ? ` ${rest} min` : ''} left`
}

/**
 * Where a run stands at `nowMs`. The time left comes from rows finished per minute in this run
 * once two are done, before that from earlier runs (when known). A run is stalled when no row
 * has changed for longer than max(3 x the median row time, 2 min); it is moving again as soon as
 * a row changes. The median is this run's own, from `marks` (row-times.ts) once a rise of its
 * rows was seen; until then its mean, or earlier runs' median.
 */
export function runPace(
  run: PaceRun,
  nowMs: number,
  earlier: EarlierPace | null = null,
  marks: RowMarks = NO_ROW_MARKS,
): RunPace {
  const startMs = (run.startedAtUnix || run.createdAtUnix) * 1000
  const lastChangeMs = Math.max(run.updatedAtUnix * 1000, startMs)
  const done = finishedRows(run)
  if (isTerminalStatus(run.status)) {
    return { state: 'ended', minutesLeft: 0, leftText: '', quietMs: 0, stallAfterMs: 0 }
  }
  const meanRowMs = done > 0 && lastChangeMs > startMs ? (lastChangeMs - startMs) / done : null
  const ownRowMs = medianRowMs(marks) ?? meanRowMs
  const rowMs = ownRowMs ?? earlier?.rowMs ?? 0
  const stallAfterMs = Math.max(STALL_FACTOR * rowMs, STALL_FLOOR_MS)
  const quietMs = Math.max(0, nowMs - lastChangeMs)
  const elapsedMin = (nowMs - startMs) / 60_000
  const rate = done >= 2 && elapsedMin > 0 ? done / elapsedMin : (earlier?.rowsPerMinute ?? null)
  const remaining = Math.max(0, run.totalTasks - done)
  const minutesLeft = rate && rate > 0 && run.totalTasks > 0 ? remaining / rate : null
  const stalled = quietMs > stallAfterMs && run.startedAtUnix > 0
  return {
    state: stalled ? 'stalled' : run.startedAtUnix > 0 ? 'moving' : 'waiting',
    minutesLeft,
    leftText: minutesLeft === null || stalled ? '' : minutesLeftText(minutesLeft),
    quietMs,
    stallAfterMs,
  }
}

/** What a stalled run means and what the user can do, in one paragraph. */
export function stalledAdvice(pace: Pick<RunPace, 'quietMs'>): {
  title: string
  body: string
} {
  const minutes = Math.max(1, Math.floor(pace.quietMs / 60_000))
  return {
    title: `Stalled: no row has changed for ${minutes} min`,
    body:
      'The service has not reported progress for much longer than this run’s rows usually take. ' +
      'Nothing is lost. Wait a little: it often picks up again by itself. Check that the ' +
      'service is up (the connection check). If it stays stalled, contact the creator of the ' +
      'template or listing with the run id.',
  }
}

/** "every 30 s", "every 2 min". */
function every(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000))
  return seconds < 120 ? `every ${seconds} s` : `every ${Math.round(seconds / 60)} min`
}

/** "Can't reach the service since 14:02, trying again every 30 s". */
export function unreachableText(
  outage: { sinceMs: number; retryMs: number },
  locale?: string,
): string {
  const since = formatMoment(new Date(outage.sinceMs), 'time', locale)
  return `Can’t reach the service since ${since}, trying again ${every(outage.retryMs)}`
}
