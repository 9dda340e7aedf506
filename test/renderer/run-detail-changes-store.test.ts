// The open run's store fed by a big run's pushes (runDetailChanged): it shows what the engine saw,
// asks for the whole detail again through the Bridge when a push went missing, and does not read
// the run again when its end comes after its last change. A run shown a window at a time takes
// its pushes as counts.
import { expect, it } from 'vitest'
import { DetailChanges } from '../../src/core/flows/watch/run-watcher-changes'
import type { BridgeApi, RunOverview } from '../../src/shared/bridge'
import type { RunDetail, RunTask } from '../../src/shared/contract'
import { createRunDetailStore } from '../../src/renderer/stores/run-detail/run-detail-store'
import { createRunSummariesStore } from '../../src/renderer/stores/run-summaries-store'
import { runOverview, runSummary } from '../helpers/run-fixtures'

const task = (i: number, status: string): RunTask => ({
  taskId: `task-${i}`,
  status,
  sourceRowIndex: i,
  artifactCount: 0,
  errorMessage: '',
})
const detailAt = (done: number, status = 'running'): RunDetail => ({
  run: runSummary({ status, totalTasks: 5, completedTasks: done, updatedAtUnix: 100 + done }),
  market: undefined,
  tasks: Array.from({ length: 5 }, (_, i) => task(i, i < done ? 'succeeded' : 'queued')),
  artifacts: [],
})
const overviewOf = (detail: RunDetail): RunOverview =>
  runOverview({ detail, fromThisDevice: false })

/** The store with run-1 open, read as `overview`; the Bridge's calls and the timers it set. */
async function openedRun(overview: RunOverview) {
  const calls: string[] = []
  const api = {
    getRunOverview: async () => (calls.push('getRunOverview'), overview),
    followRun: async () => (calls.push('followRun'), null),
    unfollowRun: async () => (calls.push('unfollowRun'), null),
    resendRunDetail: async () => (calls.push('resendRunDetail'), null),
  } as unknown as BridgeApi
  const later: (() => void)[] = []
  const store = createRunDetailStore(api, createRunSummariesStore(), {
    now: () => 0,
    later: (fn) => void later.push(fn),
  })
  await store.getState().open('Sandbox', 'run-1')
  return { calls, later, store }
}

it('applies pushed changes, asks again after a missed one, and ends without a read', async () => {
  const { calls, later, store } = await openedRun(overviewOf(detailAt(0)))
  expect(calls).toEqual(['getRunOverview', 'followRun'])

  const engine = new DetailChanges()
  const push = (detail: RunDetail) =>
    store.getState().applyDetailChange({ environment: 'Sandbox', ...engine.next(detail) })
  push(detailAt(0))
  push(detailAt(2))
  const statuses = () => store.getState().overview!.detail.tasks.map((t) => t.status)
  expect(statuses()).toEqual(['succeeded', 'succeeded', 'queued', 'queued', 'queued'])

  engine.next(detailAt(3)) // never arrives
  push(detailAt(4))
  expect(calls.filter((c) => c === 'resendRunDetail')).toHaveLength(1)
  expect(statuses()).toEqual(['succeeded', 'succeeded', 'queued', 'queued', 'queued'])

  engine.restart()
  push(detailAt(5, 'succeeded'))
  expect(statuses()).toEqual(Array(5).fill('succeeded'))
  store.getState().applyRunEnded({
    environment: 'Sandbox',
    unitLabel: 'credits',
    run: detailAt(5, 'succeeded').run,
  })
  for (const fn of later.splice(0)) fn()
  expect(calls.filter((c) => c === 'getRunOverview')).toHaveLength(1)
  expect(calls.at(-1)).toBe('unfollowRun')
})

it('takes a big run shown a window at a time by its counts, asking again for the rows in view', async () => {
  const empty = { ...detailAt(0), tasks: [] }
  const { calls, later, store } = await openedRun({
    ...overviewOf(empty),
    rows: { tasks: 5, failed: 0, outputs: 0 },
  })
  const opened = store.getState().rowsVersion
  const pushed = (done: number, status = 'running') => {
    const { run } = detailAt(done, status)
    const rows = { tasks: 5, failed: 1, outputs: done }
    store.getState().applyDetailChange({
      environment: 'Sandbox',
      runId: run.runId,
      seq: done,
      after: null,
      run,
      tasks: [],
      artifacts: [],
      taskCount: 5,
      artifactCount: done,
      rows,
    })
  }
  pushed(2)
  pushed(5, 'succeeded')
  const state = store.getState()
  expect(state.rowsVersion).toBe(opened + 2)
  expect(state.overview!.rows).toEqual({ tasks: 5, failed: 1, outputs: 5 })
  expect(state.overview!.detail.run.completedTasks).toBe(5)
  expect(state.overview!.detail.tasks).toEqual([])
  // Its last change came before its end: nothing to read again.
  state.applyRunEnded({
    environment: 'Sandbox',
    unitLabel: 'credits',
    run: detailAt(5, 'succeeded').run,
  })
  for (const fn of later.splice(0)) fn()
  expect(calls.filter((c) => c === 'getRunOverview')).toHaveLength(1)
})
