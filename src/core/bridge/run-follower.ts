/**
 * Follows the runs an environment's runs list shows, and the runs whose detail is open, and pushes
 * what changed as events (runsUpdated, runDetailUpdated, runEnded, activity). Nothing is polled by
 * the page: the engine asks the service again only while some run is still active, less often
 * while nothing changes, and not at all when every run is finished (a Refresh asks at once).
 */
import type { RunDetail, RunList } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract'
import type { ActivityUpdate, RunsUpdate } from '../../shared/bridge'
import { RunWatcher } from '../flows/watch/run-watcher'
import type { Emit, RunFollowOptions } from './types'

/** Where the follower reads runs: the service of each environment, and this computer's history. */
export interface RunsSource {
  listRuns(
    environment: string,
    query: { status?: string | undefined; pageSize?: number | undefined; pageToken?: string | undefined },
  ): Promise<RunList>
  getRun(environment: string, runId: string): Promise<RunDetail>
  /** The unit an environment counts money in, for the "run ended" notice. */
  unitLabel(environment: string): string
  /** Changes when a submission is accepted here or by another process on this computer. */
  acceptedSubmissionsMark(): string
}

const FOLLOW_PAGE_SIZE = 50

export type RunFollower = ReturnType<typeof createRunFollower>

/**
 * Follows the newest runs of each environment someone looks at, with one RunWatcher (core's
 * watcher) per environment: one list request per look while a run there is active, soon after
 * a change, then less and less often, never when everything is finished. What changed is pushed
 * as runsUpdated, runs that end as runEnded, and the overall progress as activity.
 */
export function createRunFollower(source: RunsSource, emit: Emit, options: RunFollowOptions) {
  const minMs = options.followMinMs ?? 1000
  const maxMs = options.followMaxMs ?? 10_000
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>))

  interface Followed {
    watcher: RunWatcher
    totalCount: number
    stop: () => void
    /** Someone looks at the runs list (watchRuns). */
    listed: boolean
    /** Runs whose detail is open (followRun), with how many viewers each. */
    open: Map<string, number>
  }
  const followed = new Map<string, Followed>()
  let lastActivity = ''

  function pushActivity() {
    let activeRuns = 0
    let doneTasks = 0
    let totalTasks = 0
    for (const f of followed.values()) {
      for (const run of f.watcher.activeRuns) {
        activeRuns++
        totalTasks += run.totalTasks
        doneTasks += run.completedTasks + run.failedTasks + run.cancelledTasks
      }
    }
    const update: ActivityUpdate = { activeRuns, doneTasks, totalTasks }
    const key = JSON.stringify(update)
    if (key === lastActivity) return
    lastActivity = key
    emit('activity', update)
  }

  function start(environment: string): Followed {
    const watcher = new RunWatcher(
      {
        listRuns: (query) => source.listRuns(environment, query ?? {}),
        run: (runId) => source.getRun(environment, runId),
      },
      {
        minMs,
        maxMs,
        pageSize: options.followPageSize ?? FOLLOW_PAGE_SIZE,
        setTimer,
        clearTimer,
      },
    )
    const f: Followed = { watcher, totalCount: 0, stop: () => {}, listed: false, open: new Map() }
    const offs = [
      watcher.on('detail', (detail) => emit('runDetailUpdated', { environment, detail })),
      watcher.on('changed', (runs) => {
        emit('runsUpdated', {
          environment,
          items: runs,
          totalCount: f.totalCount,
          activeCount: watcher.activeRunIds.length,
        })
        pushActivity()
      }),
      watcher.on('ended', (run) => {
        emit('runEnded', { environment, unitLabel: source.unitLabel(environment), run })
      }),
    ]
    f.stop = () => {
      watcher.stop()
      for (const off of offs) off()
    }
    return f
  }

  /** Looks at the newest page now; its active runs are followed from then on. */
  async function look(environment: string, f: Followed): Promise<RunsUpdate> {
    const page = await f.watcher.followActive()
    f.totalCount = page.totalCount
    pushActivity()
    return {
      environment,
      items: page.items,
      totalCount: page.totalCount,
      activeCount: page.items.filter((run) => !isTerminalStatus(run.status)).length,
    }
  }

  // A run submitted from this computer (this window, or the command line next to it) shows up
  // at once: the local history is checked now and then (no request to any service), and each
  // watched environment is looked at again when a new submission was accepted.
  const checkMs = options.submissionsCheckMs ?? 1500
  let mark = source.acceptedSubmissionsMark()
  let checkTimer: unknown = null
  function scheduleCheck() {
    if (checkTimer !== null || followed.size === 0) return
    checkTimer = setTimer(() => {
      checkTimer = null
      try {
        const now = source.acceptedSubmissionsMark()
        if (now !== mark) {
          mark = now
          for (const [environment, f] of followed) {
            void look(environment, f)
              .then((update) => emit('runsUpdated', update))
              .catch(() => {})
          }
        }
      } catch {
        // The history could not be read this time; try again at the next check.
      }
      scheduleCheck()
    }, checkMs)
  }
  function stopCheck() {
    if (checkTimer !== null && followed.size === 0) {
      clearTimer(checkTimer)
      checkTimer = null
    }
  }

  return {
    async watch(environment: string): Promise<RunsUpdate> {
      let f = followed.get(environment)
      if (!f) {
        f = start(environment)
        followed.set(environment, f)
      }
      f.listed = true
      scheduleCheck()
      return look(environment, f)
    },
    async refresh(environment: string): Promise<RunsUpdate> {
      const f = followed.get(environment)
      if (!f) return this.watch(environment)
      return look(environment, f)
    },
    unwatch(environment: string) {
      const f = followed.get(environment)
      if (!f) return
      f.listed = false
      // An open run detail keeps following its run.
      if (f.open.size > 0) return
      f.stop()
      followed.delete(environment)
      stopCheck()
      pushActivity()
    },
    /** An open run detail: that run is followed wherever it sits in the list, until it ends. */
    followRun(environment: string, runId: string) {
      let f = followed.get(environment)
      if (!f) {
        f = start(environment)
        followed.set(environment, f)
      }
      f.open.set(runId, (f.open.get(runId) ?? 0) + 1)
      f.watcher.focus(runId)
    },
    unfollowRun(environment: string, runId: string) {
      const f = followed.get(environment)
      const viewers = f?.open.get(runId)
      if (!f || !viewers) return
      if (viewers > 1) {
        f.open.set(runId, viewers - 1)
        return
      }
      f.open.delete(runId)
      f.watcher.unfocus(runId)
      if (f.listed || f.open.size > 0) return
      f.stop()
      followed.delete(environment)
      stopCheck()
      pushActivity()
    },
    dispose() {
      for (const f of followed.values()) f.stop()
      followed.clear()
      stopCheck()
    },
  }
}
