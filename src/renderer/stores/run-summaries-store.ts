/**
 * The run summaries the window knows, one per run and environment. The runs list and the open
 * run's detail both take a run's summary from here and put every summary they receive here (a
 * page, a pushed update, the detail's read, a run's end), so news that reaches either is what
 * both show, as the same object. A summary never goes backwards: an older one (smaller
 * updatedAtUnix) arriving late does not replace a newer one.
 */
import { createStore } from 'zustand/vanilla'
import type { RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { markRows, NO_ROW_MARKS, type RowMarks } from '../../shared/format'

/** How many pages of news an index holds over its base before it is made whole again. */
const MOST_LAYERS = 16

/**
 * One environment's summaries by runId, never changed once made: news makes a new index, a
 * layer of the new summaries over the one before, so a page of 50 runs costs its 50 and not a
 * copy of the thousands already known (at 10,000 runs, copying the whole record for every page
 * was most of a page's work in the runs list's trace, and its garbage set off long collections).
 * Every MOST_LAYERS layers the index is made whole again, so a lookup stays a few map reads.
 */
export class RunSummaryIndex {
  static readonly EMPTY = new RunSummaryIndex(new Map(), null, 0)

  private constructor(
    private readonly own: ReadonlyMap<string, RunSummary>,
    private readonly base: RunSummaryIndex | null,
    private readonly layers: number,
  ) {}

  get(runId: string): RunSummary | undefined {
    return this.own.get(runId) ?? this.base?.get(runId)
  }

  /** The summaries this index adds over `before`, when it is one layer over it; else null. */
  newsOver(before: RunSummaryIndex | undefined): ReadonlyMap<string, RunSummary> | null {
    return before !== undefined && this.base === before ? this.own : null
  }

  /** This index with `news` (by runId) over it. */
  with(news: ReadonlyMap<string, RunSummary>): RunSummaryIndex {
    if (this.layers < MOST_LAYERS) return new RunSummaryIndex(news, this, this.layers + 1)
    const whole = new Map<string, RunSummary>()
    this.copyInto(whole)
    for (const [runId, run] of news) whole.set(runId, run)
    return new RunSummaryIndex(whole, null, 0)
  }

  private copyInto(whole: Map<string, RunSummary>): void {
    this.base?.copyInto(whole)
    for (const [runId, run] of this.own) whole.set(runId, run)
  }
}

export interface RunSummariesData {
  /** Summaries by environment name, then by runId. */
  byEnvironment: Record<string, RunSummaryIndex>
  /**
   * What the window saw of each unfinished run's rows finishing (row-times.ts), by environment,
   * then runId: the stall rule's median row time. A run's marks go when it ends.
   */
  rowMarks: Record<string, Record<string, RowMarks>>
}

export interface RunSummariesActions {
  put(environment: string, runs: readonly RunSummary[]): void
}

export type RunSummariesState = RunSummariesData & RunSummariesActions

/** Whether `run` should replace `known` (the same second counts as newer: it came later). */
export function isNewerSummary(run: RunSummary, known: RunSummary | undefined): boolean {
  return !known || (run !== known && run.updatedAtUnix >= known.updatedAtUnix)
}

export function summaryOf(
  state: RunSummariesData,
  environment: string | null,
  runId: string | null,
): RunSummary | undefined {
  if (!environment || !runId) return undefined
  return state.byEnvironment[environment]?.get(runId)
}

/** The marks of one run's rows (none until the window saw it under way). */
export function rowMarksOf(
  state: RunSummariesData,
  environment: string | null,
  runId: string,
): RowMarks {
  return (environment && state.rowMarks[environment]?.[runId]) || NO_ROW_MARKS
}

/** `marks` with the news of `runs` (already known to be newer); the same object when none. */
function withRowMarks(
  marks: Record<string, RowMarks>,
  runs: readonly RunSummary[],
): Record<string, RowMarks> {
  let after: Record<string, RowMarks> | null = null
  for (const run of runs) {
    const before = marks[run.runId]
    const next = isTerminalStatus(run.status) ? undefined : markRows(before ?? NO_ROW_MARKS, run)
    if (next === before || (next?.length === 0 && before === undefined)) continue
    after ??= { ...marks }
    if (next) after[run.runId] = next
    else delete after[run.runId]
  }
  return after ?? marks
}

/** `runs` as the cache has them: each replaced by the newest summary known of it. */
export function newestOf(
  state: RunSummariesData,
  environment: string,
  runs: readonly RunSummary[],
): RunSummary[] {
  const known = state.byEnvironment[environment]
  return known ? runs.map((run) => known.get(run.runId) ?? run) : [...runs]
}

export function createRunSummariesStore() {
  return createStore<RunSummariesState>()((set, get) => ({
    byEnvironment: {},
    rowMarks: {},
    put(environment, runs) {
      const before = get().byEnvironment[environment] ?? RunSummaryIndex.EMPTY
      const news = new Map<string, RunSummary>()
      const newer: RunSummary[] = []
      for (const run of runs) {
        if (!isNewerSummary(run, news.get(run.runId) ?? before.get(run.runId))) continue
        news.set(run.runId, run)
        newer.push(run)
      }
      if (news.size === 0) return
      const after = before.with(news)
      const state = get()
      const marks = state.rowMarks[environment] ?? {}
      const marked = withRowMarks(marks, newer)
      set({
        byEnvironment: { ...state.byEnvironment, [environment]: after },
        ...(marked !== marks ? { rowMarks: { ...state.rowMarks, [environment]: marked } } : {}),
      })
    },
  }))
}

export type RunSummariesStore = ReturnType<typeof createRunSummariesStore>
