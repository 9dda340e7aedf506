/** Plain selector functions of the runs store; tested like any function. */
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract/statuses'
import type { BridgeErrorInfo } from '../../shared/bridge'
import {
  earlierPaces,
  needsAttention,
  NO_ROW_MARKS,
  runPace,
  type PaceOf,
  type RowMarks,
} from '../../shared/format'

/**
 * The status filter's "Needs attention": not a status of the service (the list asks it for every
 * run) but runs with failed rows, stalled runs and runs whose outputs failed to save.
 */
export const NEEDS_ATTENTION = 'attention'

/** The status to ask the service for, for a filter of the list. */
export function serviceStatus(filter: string): string {
  return filter === NEEDS_ATTENTION ? '' : filter
}

/**
 * Whether a run is stalled at `nowMs`, its pace judged against the other runs loaded and, when
 * the window saw its rows finish, its own median row time (`marks`).
 */
export function isStalled(
  run: RunSummary,
  items: readonly RunSummary[],
  nowMs: number,
  marks: RowMarks = NO_ROW_MARKS,
): boolean {
  return stalledWith(run, earlierPaces(items), nowMs, marks)
}

function stalledWith(
  run: RunSummary,
  paceOf: PaceOf,
  nowMs: number,
  marks: RowMarks = NO_ROW_MARKS,
): boolean {
  if (isTerminalStatus(run.status)) return false
  return runPace(run, nowMs, paceOf(run), marks).state === 'stalled'
}

export interface RunsData {
  environment: string | null
  /** '' shows every status. */
  status: string
  /** Words typed in the search box: matched against name, template and input file. */
  search: string
  items: RunSummary[]
  totalCount: number
  nextPageToken: string
  loading: boolean
  loadingMore: boolean
  error: BridgeErrorInfo | null
  /** The service cannot be reached since then: the list shows the runs as last seen. */
  unreachable: { sinceMs: number; retryMs: number } | null
}

/** Newest first; runs created in the same second keep a stable order by id. */
export function newestFirst(a: RunSummary, b: RunSummary): number {
  return b.createdAtUnix - a.createdAtUnix || (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0)
}

/**
 * Applies pushed run summaries to the list: known runs are replaced by their newer version,
 * unknown runs are added. A run never goes backwards: an older summary (smaller updatedAtUnix)
 * does not replace a newer one.
 */
export function mergeRuns(existing: RunSummary[], incoming: RunSummary[]): RunSummary[] {
  if (sortsAfter(existing, incoming)) return existing.concat(incoming)
  const byId = new Map(existing.map((run) => [run.runId, run]))
  for (const run of incoming) {
    const known = byId.get(run.runId)
    if (!known || run.updatedAtUnix >= known.updatedAtUnix) byId.set(run.runId, run)
  }
  return [...byId.values()].sort(newestFirst)
}

/**
 * Whether `incoming` is a page of older runs: each sorts strictly after the one before it, the
 * first after the last of `existing`. Then none of them is listed yet (a run's place is fixed by
 * its creation), and it goes at the end as it is, without the list of thousands worked out again.
 */
function sortsAfter(existing: RunSummary[], incoming: RunSummary[]): boolean {
  let before = existing.at(-1)
  if (!before || incoming.length === 0) return false
  for (const run of incoming) {
    if (newestFirst(before, run) >= 0) return false
    before = run
  }
  return true
}

/** Whether a run matches every word of a search (name, template or listing, input file, id). */
export function runMatches(run: RunSummary, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const haystack = [
    run.displayName,
    run.templateName,
    run.templateKey,
    run.market?.skillName ?? '',
    run.market?.listingId ?? '',
    run.inputFilename,
    run.runId,
  ]
    .join('\n')
    .toLowerCase()
  return words.every((word) => haystack.includes(word))
}

/** What the filter needs beyond the runs: the time now, and runs whose outputs failed to save. */
export interface FilterContext {
  nowMs?: number
  saveFailed?: (runId: string) => boolean
  /** What the window saw of a run's rows finishing (its median row time). */
  rowMarks?: (runId: string) => RowMarks
}

function matchesFilter(
  run: RunSummary,
  paceOf: () => PaceOf,
  filter: string,
  context: FilterContext,
) {
  if (!filter) return true
  if (filter !== NEEDS_ATTENTION) return run.status === filter
  return needsAttention(run, {
    stalled: stalledWith(run, paceOf(), context.nowMs ?? Date.now(), context.rowMarks?.(run.runId)),
    unsavedOutputs: context.saveFailed?.(run.runId) ?? false,
  })
}

/** The runs that match the status filter ('' = all, or Needs attention) and the search. */
export function visibleRuns(
  state: Pick<RunsData, 'items' | 'status'> & { search?: string },
  context: FilterContext = {},
): RunSummary[] {
  const search = state.search ?? ''
  if (!state.status && !search.trim()) return state.items
  // The earlier runs' paces, worked out once for the whole list, and only when asked.
  let paces: PaceOf | undefined
  const paceOf = () => (paces ??= earlierPaces(state.items))
  return state.items.filter(
    (run) => matchesFilter(run, paceOf, state.status, context) && runMatches(run, search),
  )
}

export function activeRunCount(items: RunSummary[]): number {
  return items.filter((run) => !isTerminalStatus(run.status)).length
}

/** "12 runs", "3 running or queued", for the panel's header. */
export function runsCaption(
  state: Pick<RunsData, 'items' | 'status' | 'totalCount'> & { search?: string },
  context: FilterContext = {},
): string {
  const shown = visibleRuns(state, context).length
  const total = Math.max(state.totalCount, shown)
  const filtered = Boolean(state.status || state.search?.trim())
  const noun = (filtered ? shown : total) === 1 ? 'run' : 'runs'
  const active = activeRunCount(state.items)
  const base = filtered ? `${shown} ${noun} shown` : `${total} ${noun}`
  return active > 0 ? `${base} · ${active} in progress` : base
}

export function canLoadMore(state: Pick<RunsData, 'nextPageToken' | 'loadingMore'>): boolean {
  return state.nextPageToken !== '' && !state.loadingMore
}
