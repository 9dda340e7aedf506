// The runs follower behind the Bridge (watchRuns), against the real sandbox: a run submitted on
// this computer appears, its changes are pushed, its end is announced, and once nothing is
// active no request goes to the service.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createBridgeService } from '../../src/core/bridge-handlers'
import { createEngine, type Engine } from '../../src/core/engine'
import { MemorySecretStore } from '../../src/core/secrets'
import { createShellEngine } from '../../src/core/shell-engine'
import type { RunEnded, RunsUpdate } from '../../src/shared/bridge'
import { paths } from '../../src/shared/contract'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let engine: Engine
const log: string[] = []

beforeAll(async () => {
  sandbox = await startTestSandbox({ taskMs: 60, log: (line) => log.push(line) })
  engine = createEngine({
    home: mkdtempSync(join(tmpdir(), 'sr-follower-')),
    secretStore: new MemorySecretStore(),
  })
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token: sandbox.token })
})
afterAll(async () => {
  await engine.close()
  await sandbox.close()
})

async function until(test: () => boolean, ms = 20_000) {
  const end = Date.now() + ms
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 10))
  }
}

it('pushes a new run, its progress and its end, then stops asking', async () => {
  const service = createBridgeService(
    createShellEngine(engine, { name: 'test', version: '0', platform: 'linux' }),
    { shell: 'browser', followMinMs: 20, followMaxMs: 100, submissionsCheckMs: 20 },
  )
  const updates: RunsUpdate[] = []
  const ended: RunEnded[] = []
  service.subscribe((event, payload) => {
    if (event === 'runsUpdated') updates.push(payload as RunsUpdate)
    if (event === 'runEnded') ended.push(payload as RunEnded)
  })
  const first = await service.handlers.watchRuns({ environment: 'Local' }, { transport: 'http' })
  expect(first).toMatchObject({ environment: 'Local', items: [], activeCount: 0 })

  const connection = await engine.connect({ env: 'Local' })
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows: Array.from({ length: 6 }, (_, i) => ({ message: `row ${i}` })),
  })
  const { runId } = await engine.submissions.send(connection, entry)

  await until(() => ended.some((e) => e.run.runId === runId))
  const seen = updates.flatMap((u) => u.items).filter((run) => run.runId === runId)
  expect(seen.length).toBeGreaterThanOrEqual(2)
  expect(seen.at(-1)!.status).toBe('succeeded')
  expect(ended.find((e) => e.run.runId === runId)).toMatchObject({
    environment: 'Local',
    unitLabel: 'credits',
  })

  // Nothing active: no more list requests, however long we wait.
  const lists = () => log.filter((line) => line.startsWith(`GET ${paths.runs()} `)).length
  await new Promise((r) => setTimeout(r, 150))
  const before = lists()
  expect(before).toBeGreaterThan(2)
  await new Promise((r) => setTimeout(r, 400))
  expect(lists()).toBe(before)
  service.dispose()
})
