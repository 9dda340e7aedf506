// How often the watcher asks for the detail of a run someone has open while the run keeps
// moving: a detail carries every task (megabytes for a big run), so a big run's is asked for less
// often than every look (one look in every 1,000 tasks, at most one in ten), while each look's
// list still tells the progress; the final detail comes at once.
// The run source here is an object in memory (the watcher takes anything with listRuns and
// run), looked at by hand on a clock of its own, so the counts do not depend on timing.
import { expect, it } from 'vitest'
import type { RunDetail, RunList, RunSummary } from '../../src/shared/contract'
import { RunWatcher } from '../../src/core/flows/watch/run-watcher'
import { runSummary } from '../helpers/run-fixtures'

const TASKS = 30

function movingRun(totalTasks = TASKS) {
  let done = 0
  const summary = (): RunSummary =>
    runSummary({
      runId: 'run_big',
      displayName: 'Big',
      status: done >= totalTasks ? 'succeeded' : 'running',
      templateKey: 'row-echo',
      templateName: 'Row echo',
      inputFilename: '',
      totalTasks,
      completedTasks: done,
      estimatedCostT: TASKS,
      actualCostT: done,
      createdAtUnix: 1,
      startedAtUnix: 1,
      completedAtUnix: done >= totalTasks ? 2 : 0,
      updatedAtUnix: 1 + done,
    })
  const source = {
    detailRequests: 0,
    /** While true the run does not move (a slow stretch). */
    paused: false,
    // One more task done at every look.
    async listRuns(): Promise<RunList> {
      if (!source.paused) done = Math.min(totalTasks, done + 1)
      return { items: [summary()], nextPageToken: '', totalCount: 1 }
    },
    async run(): Promise<RunDetail> {
      source.detailRequests += 1
      return { run: summary(), tasks: [], artifacts: [] } as unknown as RunDetail
    },
  }
  return source
}

async function watchToEnd(source: ReturnType<typeof movingRun>, detailEveryMs?: number) {
  let clock = 0
  const watcher = new RunWatcher(source, {
    minMs: 1000,
    ...(detailEveryMs ? { detailEveryMs } : {}),
    now: () => clock,
    setTimer: () => null,
    clearTimer: () => {},
  })
  const details: RunSummary[] = []
  watcher.on('detail', (detail) => details.push(detail.run))
  watcher.focus('run_big')
  for (let look = 0; look < TASKS; look += 1) {
    await watcher.refresh()
    clock += 1000
  }
  watcher.stop()
  return { details, requests: watcher.requests }
}

it('asks for an open moving run’s detail at most every detailEveryMs, and at its end at once', async () => {
  const source = movingRun()
  const { details, requests } = await watchToEnd(source, 5000)
  // Looks 1 s apart, details 5 s apart, plus the last one.
  expect(source.detailRequests).toBe(Math.ceil(TASKS / 5) + 1)
  expect(details.map((run) => run.completedTasks)).toEqual([1, 6, 11, 16, 21, 26, 30])
  expect(details.at(-1)!.status).toBe('succeeded')
  expect(requests).toBe(TASKS + source.detailRequests)
})

it('paces details by the run’s size: every look for a small run, one in ten for 10,000 tasks', async () => {
  const small = movingRun(TASKS)
  await watchToEnd(small)
  expect(small.detailRequests).toBe(TASKS)
  const big = movingRun(10_000)
  const { details } = await watchToEnd(big)
  // 30 looks of a run that does not end in them: the first, then one every 10 s.
  expect(details.map((run) => run.completedTasks)).toEqual([1, 11, 21])
})

it('fetches a detail owed to a run that has stopped changing once its time has come', async () => {
  const source = movingRun()
  let clock = 0
  const watcher = new RunWatcher(source, {
    minMs: 1000,
    detailEveryMs: 3000,
    now: () => clock,
    setTimer: () => null,
    clearTimer: () => {},
  })
  const details: number[] = []
  watcher.on('detail', (detail) => details.push(detail.run.completedTasks))
  watcher.focus('run_big')
  await watcher.refresh() // 1 task done: the first detail
  clock += 1000
  await watcher.refresh() // 2 done: owed, too soon after the first
  expect(details).toEqual([1])
  source.paused = true
  clock += 1000
  await watcher.refresh() // unchanged, still too soon
  expect(details).toEqual([1])
  clock += 2000
  await watcher.refresh() // unchanged, and the owed detail is due: the run as it is now
  expect(details).toEqual([1, 2])
  clock += 5000
  await watcher.refresh() // unchanged and owed nothing: no request
  expect(source.detailRequests).toBe(2)
  watcher.stop()
})

it('looks every other interval while the runs it watches hold thousands of tasks', async () => {
  const delays = async (totalTasks: number) => {
    const scheduled: number[] = []
    const watcher = new RunWatcher(movingRun(totalTasks), {
      minMs: 1000,
      setTimer: (_fn, ms) => (scheduled.push(ms), null),
      clearTimer: () => {},
    })
    watcher.watch('run_big')
    await watcher.refresh()
    await watcher.refresh()
    watcher.stop()
    return scheduled.slice(-2)
  }
  expect(await delays(TASKS)).toEqual([1000, 1000])
  expect(await delays(10_000)).toEqual([2000, 2000])
})

it('watches a run older than the newest page by its summary alone while nobody has it open', async () => {
  const source = movingRun()
  let summaries = 0
  let wholeReads = 0
  const older = {
    // The newest page no longer holds the run: it is asked for by itself.
    listRuns: async (): Promise<RunList> => {
      await source.listRuns()
      return { items: [], nextPageToken: '', totalCount: 1 }
    },
    run: async (): Promise<RunDetail> => {
      wholeReads += 1
      return source.run()
    },
    runSummary: async (): Promise<RunSummary> => {
      summaries += 1
      return (await source.run()).run
    },
  }
  const watcher = new RunWatcher(older, { setTimer: () => null, clearTimer: () => {} })
  const ended = watcher.waitFor('run_big')
  for (let look = 0; look < TASKS; look += 1) await watcher.refresh()
  expect((await ended).status).toBe('succeeded')
  // Each look read the run's summary; no detail was asked for the watcher to keep.
  expect(summaries).toBe(TASKS)
  expect(wholeReads).toBe(0)
  watcher.stop()
})
