/**
 * Follows the active runs of one environment. One list request per interval covers every
 * active run on the first page (not one request per run); a run's detail is fetched only while
 * someone looks at it (focus) and only when its summary changed. While nothing changes the
 * interval grows; when no run is active, no request is made at all. refresh() asks at once.
 */
import {
  isTerminalStatus,
  type RunDetail,
  type RunList,
  type RunSummary,
} from '../../../shared/contract'
import { UserFacingError } from '../../../shared/errors'
import type { ApiClient } from '../../service'

/** What the watcher asks: an environment's API client, or anything that answers the same. */
export type RunSource = Pick<ApiClient, 'listRuns' | 'run'> & Partial<Pick<ApiClient, 'runSummary'>>

export interface RunWatcherEvents {
  /** A followed run changed (status, counters, cost). */
  progress: (run: RunSummary) => void
  /** Every run that changed in one look, together (after their `progress` events). */
  changed: (runs: RunSummary[]) => void
  /** The detail of a focused run, whenever it changed. */
  detail: (detail: RunDetail) => void
  /** A followed run reached a terminal status. */
  ended: (run: RunSummary) => void
  /** A look failed; the watcher keeps going, more slowly. */
  error: (error: unknown) => void
  /** A look found the service unreachable (down, 5xx, too slow); it is asked again every retryMs. */
  unreachable: (outage: Outage) => void
  /** The service answered again after an outage; the newest page is passed along. */
  reachable: (page: RunList) => void
}

/** Since when the service cannot be reached, and how often it is asked again meanwhile. */
export interface Outage {
  sinceMs: number
  retryMs: number
}

/**
 * Whether a failure is the service being away (unreachable, 5xx, too slow): worth waiting out.
 * A refused credential, a run that is not there, or a bug is not.
 */
export function isOutage(error: unknown): boolean {
  return error instanceof UserFacingError && error.category === 'unavailable'
}

export interface RunWatcherOptions {
  /** First interval and the interval after a change (ms, default 1000). */
  minMs?: number
  /** Longest interval while nothing changes (ms, default 15000). */
  maxMs?: number
  /** How many newest runs one list request covers (default 50). */
  pageSize?: number
  /** While the service cannot be reached, ask again this often (ms, default 30000). */
  outageRetryMs?: number
  /**
   * Shortest time between two detail requests of a focused run that keeps changing (ms). By
   * default it grows with the run's size (see detailPaceMs); a number here fixes it.
   */
  detailEveryMs?: number
  /**
   * Reads a focused run's detail and hands it on itself (a big run's, read as a stream: see
   * run-follower.ts); false leaves it to the watcher, which reads it whole for its `detail` event.
   */
  readDetail?: (runId: string, run: RunSummary) => Promise<boolean>
  now?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

type Listener<K extends keyof RunWatcherEvents> = RunWatcherEvents[K]

export class RunWatcher {
  private readonly minMs: number
  private readonly maxMs: number
  private readonly pageSize: number
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (handle: unknown) => void
  /** Active runs being followed, by id, with their last known summary (if any). */
  private readonly active = new Map<string, RunSummary | null>()
  private readonly focused = new Set<string>()
  /** When each focused run's detail was last fetched (ms). */
  private readonly detailAt = new Map<string, number>()
  /** Focused runs that changed since their last detail, which was too recent to fetch again. */
  private readonly detailOwed = new Set<string>()
  private readonly detailEveryMs: number | undefined
  private readonly readDetail: RunWatcherOptions['readDetail']
  /** The runs of the newest page at the last look (followed for the runs list). */
  private newest = new Set<string>()
  /** That page's summaries, as they were then. */
  newestRuns: readonly RunSummary[] = []
  private readonly listeners: { [K in keyof RunWatcherEvents]: Set<Listener<K>> } = {
    progress: new Set(),
    changed: new Set(),
    detail: new Set(),
    ended: new Set(),
    error: new Set(),
    unreachable: new Set(),
    reachable: new Set(),
  }
  private readonly outageRetryMs: number
  private readonly now: () => number
  /** The service could not be reached since then (ms); null while it answers. */
  private outageSince: number | null = null
  private delay: number
  private timer: unknown = null
  private busy: Promise<void> | null = null
  private stopped = false
  /** Requests sent, for the benchmark and tests. */
  requests = 0

  constructor(
    private readonly client: RunSource,
    options: RunWatcherOptions = {},
  ) {
    this.minMs = options.minMs ?? 1000
    this.maxMs = options.maxMs ?? 15_000
    this.pageSize = options.pageSize ?? 50
    this.outageRetryMs = options.outageRetryMs ?? 30_000
    this.detailEveryMs = options.detailEveryMs
    this.readDetail = options.readDetail
    this.now = options.now ?? Date.now
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
    this.clearTimer =
      options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>))
    this.delay = this.minMs
  }

  on<K extends keyof RunWatcherEvents>(event: K, listener: RunWatcherEvents[K]): () => void {
    this.listeners[event].add(listener)
    return () => this.listeners[event].delete(listener)
  }

  /** Follows a run (e.g. one just submitted) until it ends. */
  follow(runId: string) {
    if (!this.active.has(runId)) this.active.set(runId, null)
    this.delay = this.minMs
    this.schedule(0)
  }

  /**
   * Follows every active run among the newest ones (what a runs list shows) and returns that
   * newest page. Asking again soon after: the caller expects news (e.g. a run was just sent).
   */
  async followActive(): Promise<RunList> {
    this.requests += 1
    let page: RunList
    try {
      page = await this.client.listRuns({ pageSize: this.pageSize })
    } catch (error) {
      // Away: keep asking now and then, and say so when it answers again.
      if (isOutage(error)) {
        this.noteOutage()
        this.schedule(this.delay)
      }
      throw error
    }
    this.noteReachable(page)
    this.newestRuns = page.items
    this.newest = new Set(page.items.map((run) => run.runId))
    for (const run of page.items)
      if (!isTerminalStatus(run.status) && !this.active.has(run.runId))
        this.active.set(run.runId, run)
    this.delay = this.minMs
    this.schedule(this.delay)
    return page
  }

  /**
   * Another request found the service away: said now, not at the next look (which may be many
   * seconds off, or none while nothing is active), and asked again every outageRetryMs until it
   * answers.
   */
  serviceAway() {
    if (this.outageSince !== null) return
    this.noteOutage()
    this.schedule(this.delay)
  }

  /** The outage under way, or null while the service answers. */
  get outage(): Outage | null {
    return this.outageSince === null
      ? null
      : { sinceMs: this.outageSince, retryMs: this.outageRetryMs }
  }

  /** The latest summaries of the active runs being followed. */
  get activeRuns(): RunSummary[] {
    return [...this.active.values()].filter((run): run is RunSummary => run !== null)
  }

  /** Someone is looking at this run: fetch its detail whenever it changes. */
  focus(runId: string) {
    this.focused.add(runId)
    this.follow(runId)
  }

  /**
   * Nobody looks at this run any more. A run older than the newest page was followed only for
   * its viewer, so it is no longer asked for.
   */
  unfocus(runId: string) {
    this.focused.delete(runId)
    this.forgetDetail(runId)
    if (!this.newest.has(runId)) this.active.delete(runId)
  }

  /** Look now, whatever the interval. */
  async refresh(): Promise<void> {
    this.delay = this.minMs
    await this.tick()
  }

  get activeRunIds(): string[] {
    return [...this.active.keys()]
  }

  /** Resolves with the final summary when the run ends. */
  waitFor(runId: string): Promise<RunSummary> {
    return new Promise((resolve) => {
      const off = this.on('ended', (run) => {
        if (run.runId === runId) {
          off()
          resolve(run)
        }
      })
      this.follow(runId)
    })
  }

  stop() {
    this.stopped = true
    if (this.timer !== null) this.clearTimer(this.timer)
    this.timer = null
  }

  private schedule(ms: number) {
    if (this.stopped) return
    if (this.timer !== null) this.clearTimer(this.timer)
    this.timer = null
    if (this.active.size === 0 && this.outageSince === null) return
    this.timer = this.setTimer(() => {
      this.timer = null
      void this.tick()
    }, ms)
  }

  private async tick(): Promise<void> {
    if (this.busy) return this.busy
    this.busy = this.look()
      .catch((error: unknown) => {
        if (isOutage(error)) this.noteOutage()
        else this.delay = Math.min(this.maxMs, this.delay * 2)
        for (const l of this.listeners.error) l(error)
      })
      .finally(() => {
        this.busy = null
        this.schedule(this.delay)
      })
    return this.busy
  }

  /** The service did not answer: ask again every outageRetryMs, and tell the listeners. */
  private noteOutage() {
    this.outageSince ??= this.now()
    this.delay = this.outageRetryMs
    const outage = this.outage!
    for (const l of this.listeners.unreachable) l(outage)
  }

  private noteReachable(page: RunList) {
    if (this.outageSince === null) return
    this.outageSince = null
    this.delay = this.minMs
    for (const l of this.listeners.reachable) l(page)
  }

  private async look() {
    if (this.active.size === 0 && this.outageSince === null) return
    this.requests += 1
    const page = await this.client.listRuns({ pageSize: this.pageSize })
    this.noteReachable(page)
    this.newestRuns = page.items
    const byId = new Map(page.items.map((r) => [r.runId, r]))
    this.newest = new Set(byId.keys())
    const changedRuns: RunSummary[] = []
    for (const [runId, before] of [...this.active]) {
      let now = byId.get(runId)
      let detail: RunDetail | null = null
      if (!now) {
        // Older than the newest page: ask for this one run (its summary only, unless its
        // detail is open and read here: then it is passed on; one read by readDetail, which may
        // be too big to hold, is read there).
        this.requests += 1
        if ((this.focused.has(runId) && !this.readDetail) || !this.client.runSummary) {
          detail = await this.client.run(runId)
          now = detail.run
        } else {
          now = await this.client.runSummary(runId)
        }
        // Unfocused while that request was out: drop it.
        if (!this.active.has(runId)) continue
      }
      const changed = before === null || summaryChanged(before, now)
      if (changed) {
        changedRuns.push(now)
        this.active.set(runId, now)
        for (const l of this.listeners.progress) l(now)
      }
      if (this.focused.has(runId) && (changed || this.detailOwed.has(runId)))
        await this.sendDetail(runId, now, before === null, detail)
      if (isTerminalStatus(now.status)) {
        this.active.delete(runId)
        this.forgetDetail(runId)
        for (const l of this.listeners.ended) l(now)
      }
    }
    if (changedRuns.length) for (const l of this.listeners.changed) l(changedRuns)
    this.delay = changedRuns.length
      ? this.changedMs()
      : Math.min(this.maxMs, Math.round(this.delay * 1.5))
  }

  /**
   * The interval after a change: minMs, twice that while the runs followed hold thousands of
   * tasks (minutes long: their progress reads as well at half the requests to the service).
   */
  private changedMs(): number {
    let tasks = 0
    for (const run of this.active.values()) tasks += run?.totalTasks ?? 0
    return tasks >= BIG_ACTIVE_TASKS ? this.minMs * 2 : this.minMs
  }

  /**
   * The detail of a focused run that changed: fetched (unless `fetched` already is it) when it is
   * the first, the last, or the last one is old enough (one already fetched is passed on);
   * otherwise owed to a later look.
   */
  private async sendDetail(
    runId: string,
    now: RunSummary,
    first: boolean,
    fetched: RunDetail | null,
  ) {
    const last = this.detailAt.get(runId)
    const due =
      fetched !== null ||
      first ||
      isTerminalStatus(now.status) ||
      last === undefined ||
      this.now() - last >= (this.detailEveryMs ?? detailPaceMs(now, this.minMs))
    if (!due) {
      this.detailOwed.add(runId)
      return
    }
    let detail = fetched
    if (!detail) this.requests += 1
    const handed = !detail && (await this.readDetail?.(runId, now))
    if (!handed) detail ??= await this.client.run(runId)
    this.detailAt.set(runId, this.now())
    this.detailOwed.delete(runId)
    if (detail) for (const l of this.listeners.detail) l(detail)
  }

  private forgetDetail(runId: string) {
    this.detailAt.delete(runId)
    this.detailOwed.delete(runId)
  }
}

/** Tasks of the active runs from which a look every other interval is enough. */
const BIG_ACTIVE_TASKS = 5000

/** Tasks a detail may carry and still be fetched at every look while its run moves. */
const TASKS_PER_LOOK = 1000

/**
 * How often a moving run's detail is worth fetching: at every look (minMs) up to 1,000 tasks,
 * then one look in every thousand tasks, up to one in ten. A detail carries every task
 * (megabytes for a big run: parsed here and again in the window), while the list's summary
 * already tells the progress at each look.
 */
function detailPaceMs(run: RunSummary, minMs: number): number {
  return minMs * Math.min(10, Math.max(1, Math.ceil(run.totalTasks / TASKS_PER_LOOK)))
}

export function summaryChanged(a: RunSummary, b: RunSummary): boolean {
  return (
    a.status !== b.status ||
    a.updatedAtUnix !== b.updatedAtUnix ||
    a.completedTasks !== b.completedTasks ||
    a.failedTasks !== b.failedTasks ||
    a.cancelledTasks !== b.cancelledTasks ||
    a.totalTasks !== b.totalTasks ||
    a.actualCostT !== b.actualCostT
  )
}
