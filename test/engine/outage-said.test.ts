// The service goes away while its runs list is on screen: the first request that finds it away
// (a run's page opened, a page of the list asked for) says so to the list at once, with no look of
// the list's own due (none is, while nothing runs), and the list hears when it answers again.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import { browserBridgeService, http, pushedEvents, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let engine: Engine | undefined
let sandbox: TestSandbox | undefined
afterAll(async () => {
  await engine?.close()
  await sandbox?.close()
})

it('says the service is away as soon as any look finds it so, then that it is back', async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'sr-outage-said-db-')), 'sandbox.db')
  sandbox = await startTestSandbox({ dbPath })
  const { port, token } = sandbox
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-outage-said-')))
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token })
  const service = browserBridgeService(engine, { outageRetryMs: 300 })
  const reach = pushedEvents(service, 'runsReachability')
  await service.handlers.watchRuns({ environment: 'Local' }, http)

  await sandbox.close()
  await expect(
    service.handlers.getRunOverview({ environment: 'Local', runId: 'run_anything' }, http),
  ).rejects.toMatchObject({ code: 'unreachable' })
  // Said when that request failed: nothing else ran in between.
  expect(reach).toHaveLength(1)
  expect(reach[0]).toMatchObject({ environment: 'Local', retryMs: 300 })
  expect(reach[0]!.unreachableSinceMs).toEqual(expect.any(Number))

  sandbox = await startTestSandbox({ dbPath, port, tokens: [token] })
  await expect.poll(() => reach.at(-1)?.unreachableSinceMs, { timeout: 20_000 }).toBeNull()
})
