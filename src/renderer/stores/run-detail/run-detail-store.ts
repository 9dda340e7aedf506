/**
 * The open run: its overview (the service's detail and what this device knows), previews of its
 * outputs, the results workbook and "Show in folder" (outputs-slice), and retrying its failed
 * rows (retry-slice). Live while open: an active run is followed by the engine (followRun),
 * wherever it sits in the runs list, and its changes arrive as runDetailUpdated events; when it
 * ends, the whole overview is read once more. Every run summary it receives goes to the shared
 * cache (run-summaries-store), which the runs list reads too.
 */
import { createStore } from 'zustand/vanilla'
import type { BridgeApi, RunDetailChange, RunOverview } from '../../../shared/bridge'
import type { RunSummary } from '../../../shared/contract'
import { isTerminalStatus } from '../../../shared/contract/statuses'
import { errorInfo } from '../errors'
import type { RunSummariesStore } from '../run-summaries-store'
import { outputsActions } from './outputs-slice'
import { retryActions } from './retry-slice'
import { endedWithChanges, followChange, newChangeChain, type ChangeChain } from './detail-changes'
import {
  EMPTY_RUN_DETAIL,
  type LiveActions,
  type RunDetailContext,
  type RunDetailState,
} from './run-detail-state'

export type { RunDetailState } from './run-detail-state'
export type { PreviewState } from './outputs-slice'

export interface RunDetailTimers {
  now: () => number
  later: (fn: () => void, ms: number) => void
}

type RunRef = { environment: string; runId: string }

/** The run the engine follows for this detail, if any: one at a time. */
function createFollower(api: BridgeApi) {
  let following: RunRef | null = null
  const is = (ref: RunRef) =>
    following?.environment === ref.environment && following.runId === ref.runId
  return {
    is,
    active: () => following !== null,
    unfollow() {
      if (following) void api.unfollowRun(following).catch(() => {})
      following = null
    },
    follow(ref: RunRef) {
      if (is(ref)) return
      this.unfollow()
      following = ref
      void api.followRun(ref).catch(() => {
        // The engine could not follow it: the runs list's updates still refresh the detail.
        following = null
      })
    },
    /** Forgets the followed run without telling the engine; gives it back for the caller. */
    forget() {
      const was = following
      following = null
      return was
    },
  }
}

/**
 * The open run's overview with the newest summary of it: the cache's when that is newer than the
 * one the overview was read with. Both the runs list and this page show that summary.
 */
export function shownOverview(
  overview: RunOverview | null,
  summary: RunSummary | undefined,
): RunOverview | null {
  if (!overview || !summary || summary === overview.detail.run) return overview
  const read = overview.detail.run
  if (summary.runId !== read.runId || summary.updatedAtUnix < read.updatedAtUnix) return overview
  return { ...overview, detail: { ...overview.detail, run: summary } }
}

/** A run shown a window at a time, with its newest summary and counts (its rows are asked again). */
function windowedChange(overview: RunOverview, change: RunDetailChange): RunOverview {
  const read = overview.detail.run
  const run = change.run.updatedAtUnix >= read.updatedAtUnix ? change.run : read
  const market = change.market ?? overview.detail.market
  return {
    ...overview,
    detail: { ...overview.detail, run, ...(market ? { market } : {}) },
    ...(change.rows ? { rows: change.rows } : {}),
  }
}

function liveActions(
  ctx: RunDetailContext & { bump(): number; chain: { current: ChangeChain } },
  follower: ReturnType<typeof createFollower>,
  readSoon: () => void,
  putSummaries: (environment: string, runs: RunSummary[]) => void,
): LiveActions {
  const { set, get, api, chain } = ctx
  return {
    async open(environment, runId) {
      const mine = ctx.bump()
      chain.current = newChangeChain()
      if (!follower.is({ environment, runId })) follower.unfollow()
      set({ ...EMPTY_RUN_DETAIL, environment, runId, loading: true })
      await ctx.read(mine)
    },
    async refresh() {
      set({ error: null })
      await ctx.read(ctx.generation())
    },
    async reconnected() {
      const { environment, runId } = get()
      if (!environment || !runId) return
      const was = follower.forget()
      // The same engine still counts this viewer: take it off before following again, in order.
      if (was) await api.unfollowRun(was).catch(() => {})
      await ctx.read(ctx.generation())
    },
    close() {
      ctx.bump()
      chain.current = newChangeChain()
      follower.unfollow()
      set({ ...EMPTY_RUN_DETAIL })
    },
    applyRunsUpdate(update) {
      putSummaries(update.environment, update.items)
      const { environment, runId, overview } = get()
      if (update.environment !== environment || !runId || !overview) return
      // A followed run's changes arrive as runDetailUpdated, with its detail.
      if (follower.active()) return
      const run = update.items.find((r) => r.runId === runId)
      if (!run || run.updatedAtUnix <= overview.detail.run.updatedAtUnix) return
      readSoon()
    },
    applyDetailUpdate(update) {
      const run = update.detail.run
      putSummaries(update.environment, [run])
      const { environment, runId, overview } = get()
      if (update.environment !== environment || run.runId !== runId || !overview) return
      if (run.updatedAtUnix < overview.detail.run.updatedAtUnix) return
      set({ overview: { ...overview, detail: update.detail } })
    },
    applyDetailChange(change) {
      putSummaries(change.environment, [change.run])
      const { environment, runId, overview } = get()
      if (change.environment !== environment || change.runId !== runId || !overview) return
      if (change.rows) {
        set({ overview: windowedChange(overview, change), rowsVersion: get().rowsVersion + 1 })
        return
      }
      const detail = followChange(chain.current, overview.detail, change)
      if (detail === 'missed') void api.resendRunDetail({ environment, runId }).catch(() => {})
      else if (detail) set({ overview: { ...overview, detail } })
    },
    applyRunEnded(event) {
      putSummaries(event.environment, [event.run])
      const { environment, runId, overview } = get()
      if (event.environment !== environment || event.run.runId !== runId || !overview) return
      if (event.run.updatedAtUnix >= overview.detail.run.updatedAtUnix)
        set({ overview: { ...overview, detail: { ...overview.detail, run: event.run } } })
      // The engine stops following it by itself; the final outputs and payment come next.
      if (follower.is({ environment, runId })) follower.unfollow()
      // A big run followed by its changes already has them: its last change came before its end.
      if (overview.rows || endedWithChanges(chain.current)) return
      readSoon()
    },
  }
}

export function createRunDetailStore(
  api: BridgeApi,
  summaries: RunSummariesStore,
  timers: RunDetailTimers = {
    now: () => Date.now(),
    later: (fn, ms) => void setTimeout(fn, ms),
  },
) {
  return createStore<RunDetailState>()((set, get) => {
    let generation = 0
    let lastRead = 0
    let refreshQueued = false
    const follower = createFollower(api)
    const putSummaries = (environment: string, runs: RunSummary[]) =>
      summaries.getState().put(environment, runs)

    async function read(mine: number) {
      const { environment, runId } = get()
      if (!environment || !runId) return
      lastRead = timers.now()
      try {
        const overview = await api.getRunOverview({ environment, runId })
        if (mine !== generation) return
        putSummaries(environment, [overview.detail.run])
        // A run shown a window at a time was read into the engine again: its rows in view too.
        const rowsVersion = get().rowsVersion + (overview.rows ? 1 : 0)
        set({ overview, loading: false, error: null, rowsVersion })
        if (!isTerminalStatus(overview.detail.run.status)) follower.follow({ environment, runId })
      } catch (error) {
        if (mine !== generation) return
        set({ loading: false, error: errorInfo(error) })
      }
    }

    /** Reads the whole overview again soon (at most once a second). */
    function readSoon() {
      if (refreshQueued) return
      const wait = Math.max(0, 1000 - (timers.now() - lastRead))
      refreshQueued = true
      const mine = generation
      timers.later(() => {
        refreshQueued = false
        if (mine === generation) void read(mine)
      }, wait)
    }

    const ctx = {
      set,
      get,
      api,
      read,
      generation: () => generation,
      bump: () => ++generation,
      chain: { current: newChangeChain() },
    }
    return {
      ...EMPTY_RUN_DETAIL,
      ...liveActions(ctx, follower, readSoon, putSummaries),
      ...outputsActions(ctx),
      ...retryActions(ctx),
    }
  })
}

export type RunDetailStore = ReturnType<typeof createRunDetailStore>
