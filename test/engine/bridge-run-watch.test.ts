// The runs runWatch behind the Bridge (watchRuns), against the real sandbox: a run submitted on
// this computer appears, its changes are pushed, its end is announced, and once nothing is
// active no request goes to the service.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import { paths } from '../../src/shared/contract'
import { browserBridgeService, pushedEvents, testEngine } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

const log: string[] = []
const sandbox = useTestSandbox({ taskMs: 60, log: (line) => log.push(line) })
let engine: Engine

beforeAll(async () => {
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-runWatch-')))
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token: sandbox.token })
})
afterAll(async () => {
  await engine.close()
})

/** A Bridge service that watches runs every 20 ms at first, with `options` on top. */
function quickService(options: Parameters<typeof browserBridgeService>[1]) {
  return browserBridgeService(engine, { watchMinMs: 20, watchMaxMs: 100, ...options })
}

/** How many requests the sandbox logged that start with `prefix`. */
const requests = (prefix: string) => log.filter((line) => line.startsWith(prefix)).length
const detailRequests = (runId: string) => requests(`GET ${paths.run(runId)} `)

/**
 * Once requests already out had `settleMs` to land, what `counts` read; then checks that none
 * of them grows over the next `quietMs`.
 */
async function noMoreRequests(settleMs: number, quietMs: number, ...counts: (() => number)[]) {
  await new Promise((r) => setTimeout(r, settleMs))
  const before = counts.map((count) => count())
  await new Promise((r) => setTimeout(r, quietMs))
  expect(counts.map((count) => count())).toEqual(before)
  return before
}

/** Sends `rowCount` rows of row-echo from this computer and returns the new run's id. */
async function submit(rowCount: number): Promise<string> {
  const connection = await engine.connect({ env: 'Local' })
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows: Array.from({ length: rowCount }, (_, i) => ({ message: `row ${i}` })),
  })
  return (await engine.submissions.send(connection, entry)).runId
}

it('pushes a new run, its progress and its end, then stops asking', async () => {
  const service = quickService({ submissionsCheckMs: 20 })
  const updates = pushedEvents(service, 'runsUpdated')
  const ended = pushedEvents(service, 'runEnded')
  const first = await service.handlers.watchRuns({ environment: 'Local' }, { transport: 'http' })
  expect(first).toMatchObject({ environment: 'Local', items: [], activeCount: 0 })

  const runId = await submit(6)

  await until(() => ended.some((e) => e.run.runId === runId))
  const seen = updates.flatMap((u) => u.items).filter((run) => run.runId === runId)
  expect(seen.length).toBeGreaterThanOrEqual(2)
  expect(seen.at(-1)!.status).toBe('succeeded')
  expect(ended.find((e) => e.run.runId === runId)).toMatchObject({
    environment: 'Local',
    unitLabel: 'credits',
  })

  // Nothing active: no more list requests, however long we wait.
  const [lists] = await noMoreRequests(150, 400, () => requests(`GET ${paths.runs()} `))
  expect(lists).toBeGreaterThan(2)
  service.dispose()
})

it('keeps an open run detail live when its run is older than the newest page', async () => {
  // The runs list covers the newest run only: the open run falls off it once another is sent.
  const service = quickService({ watchPageSize: 1 })
  const details = pushedEvents(service, 'runDetailUpdated')
  const ended = pushedEvents(service, 'runEnded')
  const older = await submit(20)
  const newer = await submit(1)
  const list = await service.handlers.watchRuns({ environment: 'Local' }, { transport: 'http' })
  expect(list.items.map((run) => run.runId)).toEqual([newer])

  await service.handlers.watchRun({ environment: 'Local', runId: older }, { transport: 'http' })
  await until(() => ended.some((e) => e.run.runId === older))
  const mine = details.filter((d) => d.environment === 'Local' && d.detail.run.runId === older)
  expect(mine.length).toBeGreaterThanOrEqual(2)
  const done = mine.map((d) => d.detail.run.completedTasks)
  expect(done).toEqual([...done].sort((a, b) => a - b))
  expect(mine[0]!.detail.run.status).not.toBe('succeeded')
  expect(mine.at(-1)!.detail.run.status).toBe('succeeded')
  expect(mine.at(-1)!.detail.tasks).toHaveLength(20)
  expect(ended.filter((e) => e.run.runId === older)).toHaveLength(1)

  // Ended: that run is not asked for again, though the list stays watched.
  await noMoreRequests(100, 300, () => detailRequests(older))
  service.dispose()
})

it('stops asking for a watched run as soon as its detail closes', async () => {
  const service = quickService({ watchMaxMs: 40, watchPageSize: 1 })
  const details = pushedEvents(service, 'runDetailUpdated')
  const older = await submit(40)
  await submit(1)
  const ref = { environment: 'Local', runId: older }
  await service.handlers.watchRun(ref, { transport: 'http' })
  await until(() => details.some((d) => d.detail.run.runId === older))
  await service.handlers.unwatchRun(ref, { transport: 'http' })
  // A request already out may still land; after that, nothing more for this run.
  // Nothing else was watched: no list requests either.
  await noMoreRequests(
    60,
    300,
    () => detailRequests(older),
    () => requests(`GET ${paths.runs()}`),
  )
  const connection = await engine.connect({ env: 'Local' })
  expect((await connection.client.run(older)).run.status).not.toBe('succeeded')
  service.dispose()
})

it('pushes a big open run whole once, then what changed, and the whole again when asked', async () => {
  // Every run counts as big here, so a small run shows the path a 10,000-row one takes.
  const service = quickService({ wholeDetailUpTo: 0 })
  const changes = pushedEvents(service, 'runDetailChanged')
  const whole = pushedEvents(service, 'runDetailUpdated')
  const ended = pushedEvents(service, 'runEnded')
  const runId = await submit(40)
  const ref = { environment: 'Local', runId }
  await service.handlers.watchRun(ref, { transport: 'http' })
  await until(() => changes.length >= 1)
  await service.handlers.resendRunDetail(ref, { transport: 'http' })
  await until(() => ended.some((e) => e.run.runId === runId))

  expect(whole).toEqual([])
  const mine = changes.filter((c) => c.runId === runId)
  expect(mine[0]).toMatchObject({ environment: 'Local', seq: 1, after: null, taskCount: 40 })
  expect(mine[0]!.tasks).toHaveLength(40)
  // Numbered one after the other; after the first, the whole detail again only once asked.
  mine.forEach((c, i) => expect(c.seq).toBe(i + 1))
  const wholeAgain = mine.filter((c, i) => i > 0 && c.after === null)
  expect(wholeAgain).toHaveLength(1)
  expect(wholeAgain[0]!.tasks).toHaveLength(40)
  for (const c of mine.slice(1)) if (c.after !== null) expect(c.after).toBe(c.seq - 1)
  // The changes rebuild the detail the service ends with, tasks and outputs alike.
  const tasks = new Map<string, unknown>()
  const outputs = new Set<string>()
  for (const c of mine) {
    for (const t of c.tasks) tasks.set(t.taskId, t)
    for (const a of c.artifacts) outputs.add(a.artifactId)
  }
  const final = await (await engine.connect({ env: 'Local' })).client.run(runId)
  expect(final.run.status).toBe('succeeded')
  expect(mine.at(-1)!.run.status).toBe('succeeded')
  expect([...tasks.values()]).toEqual(expect.arrayContaining(final.tasks))
  expect(tasks.size).toBe(final.tasks.length)
  expect([...outputs].sort()).toEqual(final.artifacts.map((a) => a.artifactId).sort())
  service.dispose()
})
