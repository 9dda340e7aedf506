/**
 * Follows the runs an environment's runs list shows, and the runs whose detail is open, and pushes
 * what changed as events (runsUpdated, runDetailUpdated, runEnded, activity). Nothing is polled by
 * the page: the engine asks the service again only while some run is still active, less often
 * while nothing changes, and not at all when every run is finished (a Refresh asks at once).
 */
import type { RunDetail, RunList, RunSummary } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract'
import type { ActivityUpdate, RunsUpdate } from '../../shared/bridge'
import { RunWatcher } from '../flows/watch/run-watcher'
import { DetailChanges, type DetailLook } from '../flows/watch/run-watcher-changes'
import { WINDOWED_FROM, type StoredRead } from '../flows/watch/stored-detail'
import { keepNoParts, type RunDetailHead, type RunDetailSink } from '../service/run-detail-stream'
import type { Emit, RunFollowOptions } from './types'

/** Where the follower reads runs: the service of each environment, and this computer's history. */
export interface RunsSource {
  listRuns(
    environment: string,
    query: {
      status?: string | undefined
      pageSize?: number | undefined
      pageToken?: string | undefined
    },
  ): Promise<RunList>
  getRun(environment: string, runId: string): Promise<RunDetail>
  /** A run's detail read as it arrives, into the sink `open` makes for each attempt. */
  readRun(environment: string, runId: string, open: () => RunDetailSink): Promise<RunDetailHead>
  /** A run's detail read into the history as it arrives; whole as well up to `keepUpTo` parts. */
  storeRun(environment: string, runId: string, keepUpTo: number): Promise<StoredRead>
  /** The unit an environment counts money in, for the "run ended" notice. */
  unitLabel(environment: string): string
  /** Changes when a submission is accepted here or by another process on this computer. */
  acceptedSubmissionsMark(): string
}

const FOLLOW_PAGE_SIZE = 50
/**
 * A detail of more tasks than this is pushed whole once, then as what changed
 * (runDetailChanged); a smaller one is pushed whole at each change (runDetailUpdated).
 */
const WHOLE_DETAIL_UP_TO = 1000

interface Followed {
  watcher: RunWatcher
  totalCount: number
  stop: () => void
  /** Someone looks at the runs list (watchRuns). */
  listed: boolean
  /** Runs whose detail is open (followRun), with how many viewers each. */
  open: Map<string, number>
  /** The big open runs' pushes so far (what the windows hold), by run id. */
  changes: Map<string, DetailChanges>
  /** The open runs shown a window at a time, with their pushes so far. */
  windowed: Map<string, number>
}

/**
 * One RunWatcher (core's watcher) per environment someone looks at: one list request per look
 * while a run there is active, soon after a change, then less and less often, never when
 * everything is finished. A run submitted from this computer (this window, or the command line
 * next to it) shows up at once: the local history is checked now and then (no request to any
 * service), and each watched environment is looked at again when a new submission was accepted.
 */
export class RunFollower {
  private readonly followed = new Map<string, Followed>()
  private lastActivity = ''
  private mark: string
  private checkTimer: unknown = null
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (handle: unknown) => void

  constructor(
    private readonly source: RunsSource,
    private readonly emit: Emit,
    private readonly options: RunFollowOptions,
  ) {
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>))
    this.mark = source.acceptedSubmissionsMark()
  }

  async watch(environment: string): Promise<RunsUpdate> {
    const f = this.followedOf(environment)
    f.listed = true
    this.scheduleCheck()
    return this.look(environment, f)
  }

  async refresh(environment: string): Promise<RunsUpdate> {
    const f = this.followed.get(environment)
    if (!f) return this.watch(environment)
    return this.look(environment, f)
  }

  unwatch(environment: string) {
    const f = this.followed.get(environment)
    if (!f) return
    f.listed = false
    // An open run detail keeps following its run.
    if (f.open.size > 0) return
    this.forget(environment, f)
  }

  /** An open run detail: that run is followed wherever it sits in the list, until it ends. */
  followRun(environment: string, runId: string) {
    const f = this.followedOf(environment)
    f.open.set(runId, (f.open.get(runId) ?? 0) + 1)
    // The new viewer holds none of the pushes so far: the next one is whole, for everyone.
    f.changes.get(runId)?.restart()
    f.watcher.focus(runId)
  }

  /** A window missed a push of this run's detail: the next push is the whole detail. */
  resendRunDetail(environment: string, runId: string) {
    this.followed.get(environment)?.changes.get(runId)?.restart()
  }

  unfollowRun(environment: string, runId: string) {
    const f = this.followed.get(environment)
    const viewers = f?.open.get(runId)
    if (!f || !viewers) return
    if (viewers > 1) {
      f.open.set(runId, viewers - 1)
      return
    }
    f.open.delete(runId)
    f.changes.delete(runId)
    f.windowed.delete(runId)
    f.watcher.unfocus(runId)
    if (f.listed || f.open.size > 0) return
    this.forget(environment, f)
  }

  /** A request to this environment's service found it away: whoever follows its runs is told now. */
  serviceAway(environment: string) {
    this.followed.get(environment)?.watcher.serviceAway()
  }

  dispose() {
    for (const f of this.followed.values()) f.stop()
    this.followed.clear()
    this.stopCheck()
  }

  private followedOf(environment: string): Followed {
    let f = this.followed.get(environment)
    if (!f) {
      f = this.start(environment)
      this.followed.set(environment, f)
    }
    return f
  }

  private forget(environment: string, f: Followed) {
    f.stop()
    this.followed.delete(environment)
    this.stopCheck()
    this.pushActivity()
  }

  private pushActivity() {
    let activeRuns = 0
    let doneTasks = 0
    let totalTasks = 0
    for (const f of this.followed.values()) {
      for (const run of f.watcher.activeRuns) {
        activeRuns++
        totalTasks += run.totalTasks
        doneTasks += run.completedTasks + run.failedTasks + run.cancelledTasks
      }
    }
    const update: ActivityUpdate = { activeRuns, doneTasks, totalTasks }
    const key = JSON.stringify(update)
    if (key === this.lastActivity) return
    this.lastActivity = key
    this.emit('activity', update)
  }

  private start(environment: string): Followed {
    const { source, emit, options } = this
    const watcher = new RunWatcher(
      {
        listRuns: (query) => source.listRuns(environment, query ?? {}),
        run: (runId) => source.getRun(environment, runId),
        runSummary: async (runId) =>
          (await source.readRun(environment, runId, () => keepNoParts)).run,
      },
      {
        minMs: options.followMinMs ?? 1000,
        maxMs: options.followMaxMs ?? 10_000,
        pageSize: options.followPageSize ?? FOLLOW_PAGE_SIZE,
        ...(options.outageRetryMs ? { outageRetryMs: options.outageRetryMs } : {}),
        readDetail: (runId, run) => this.readBigDetail(environment, f, runId, run),
        setTimer: this.setTimer,
        clearTimer: this.clearTimer,
      },
    )
    const f: Followed = {
      watcher,
      totalCount: 0,
      stop: () => {},
      listed: false,
      open: new Map(),
      changes: new Map(),
      windowed: new Map(),
    }
    const offs = [
      watcher.on('detail', (detail) => this.pushDetail(environment, f, detail)),
      watcher.on('changed', (runs) => {
        emit('runsUpdated', {
          environment,
          items: runs,
          totalCount: f.totalCount,
          activeCount: watcher.activeRunIds.length,
        })
        this.pushActivity()
      }),
      watcher.on('ended', (run) => {
        // Its last detail was pushed before this: nothing more to send of it.
        f.changes.delete(run.runId)
        f.windowed.delete(run.runId)
        emit('runEnded', { environment, unitLabel: source.unitLabel(environment), run })
      }),
      // The service went away: the window keeps what it last saw and says since when.
      watcher.on('unreachable', (outage) =>
        emit('runsReachability', {
          environment,
          unreachableSinceMs: outage.sinceMs,
          retryMs: outage.retryMs,
        }),
      ),
      // Back: the newest page as it is now, so the list is whole again, then the all-clear.
      watcher.on('reachable', (page) => {
        f.totalCount = page.totalCount
        emit('runsUpdated', this.updateOf(environment, page))
        emit('runsReachability', {
          environment,
          unreachableSinceMs: null,
          retryMs: options.outageRetryMs ?? 30_000,
        })
      }),
    ]
    f.stop = () => {
      watcher.stop()
      for (const off of offs) off()
    }
    return f
  }

  /**
   * A big followed run's detail, read as it arrives and pushed as what changed since the last
   * push: only the changed tasks and new outputs are held, never the whole detail. False for a
   * small run (pushed whole, read by the watcher).
   */
  private async readBigDetail(
    environment: string,
    f: Followed,
    runId: string,
    run: RunSummary,
  ): Promise<boolean> {
    if (f.windowed.has(runId) || run.totalTasks > (this.options.windowedFrom ?? WINDOWED_FROM)) {
      await this.storeBigDetail(environment, f, runId)
      return true
    }
    let changes = f.changes.get(runId)
    if (!changes && run.totalTasks <= (this.options.wholeDetailUpTo ?? WHOLE_DETAIL_UP_TO)) {
      return false
    }
    if (!changes) {
      changes = new DetailChanges()
      f.changes.set(runId, changes)
    }
    for (;;) {
      let look: DetailLook | undefined
      const head = await this.source.readRun(environment, runId, () => (look = changes.look()))
      // Closed while it was read: nobody holds its pushes any more.
      if (f.changes.get(runId) !== changes) return true
      const change = look!.finish(head)
      if (change) {
        this.emit('runDetailChanged', { environment, ...change })
        return true
      }
    }
  }

  /**
   * A run shown a window at a time: its detail read into the history (only what changed is
   * written), and its counts pushed, so its page asks again for the rows it shows.
   */
  private async storeBigDetail(environment: string, f: Followed, runId: string) {
    const seq = (f.windowed.get(runId) ?? 0) + 1
    f.windowed.set(runId, seq)
    const { head, counts } = await this.source.storeRun(environment, runId, 0)
    if (!f.open.has(runId)) return
    this.emit('runDetailChanged', {
      environment,
      runId,
      seq,
      after: null,
      run: head.run,
      ...(head.market ? { market: head.market } : {}),
      tasks: [],
      artifacts: [],
      taskCount: counts.tasks,
      artifactCount: counts.outputs,
      rows: counts,
    })
  }

  /** A followed run's detail: whole when small, else what changed since the last push. */
  private pushDetail(environment: string, f: Followed, detail: RunDetail) {
    const runId = detail.run.runId
    let changes = f.changes.get(runId)
    const wholeUpTo = this.options.wholeDetailUpTo ?? WHOLE_DETAIL_UP_TO
    if (!changes && Math.max(detail.tasks.length, detail.run.totalTasks) <= wholeUpTo) {
      this.emit('runDetailUpdated', { environment, detail })
      return
    }
    if (!changes) {
      changes = new DetailChanges()
      f.changes.set(runId, changes)
    }
    this.emit('runDetailChanged', { environment, ...changes.next(detail) })
  }

  /** Looks at the newest page now; its active runs are followed from then on. */
  private async look(environment: string, f: Followed): Promise<RunsUpdate> {
    const page = await f.watcher.followActive()
    f.totalCount = page.totalCount
    this.pushActivity()
    return this.updateOf(environment, page)
  }

  private updateOf(environment: string, page: RunList): RunsUpdate {
    return {
      environment,
      items: page.items,
      totalCount: page.totalCount,
      activeCount: page.items.filter((run) => !isTerminalStatus(run.status)).length,
    }
  }

  private scheduleCheck() {
    if (this.checkTimer !== null || this.followed.size === 0) return
    this.checkTimer = this.setTimer(() => {
      this.checkTimer = null
      this.checkSubmissions()
      this.scheduleCheck()
    }, this.options.submissionsCheckMs ?? 1500)
  }

  private checkSubmissions() {
    try {
      const now = this.source.acceptedSubmissionsMark()
      if (now === this.mark) return
      this.mark = now
      for (const [environment, f] of this.followed) {
        void this.look(environment, f)
          .then((update) => this.emit('runsUpdated', update))
          .catch(() => {})
      }
    } catch {
      // The history could not be read this time; try again at the next check.
    }
  }

  private stopCheck() {
    if (this.checkTimer !== null && this.followed.size === 0) {
      this.clearTimer(this.checkTimer)
      this.checkTimer = null
    }
  }
}
