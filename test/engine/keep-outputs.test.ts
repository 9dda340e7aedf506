// Outputs kept for good in the app: when a run the window watches ends, its outputs are saved to
// the outputs folder without anyone asking (the "keep outputs" setting, on by default), the
// window is told where (outputsSaved), and the run's overview says so from then on.
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import { browserBridgeService, http, pushedEvents, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox
let engine: Engine
let home: string

beforeAll(async () => {
  // Addresses that expire quickly too: a save right at the end must not depend on them lasting.
  sandbox = await startTestSandbox({ taskMs: 40, urlTtlMs: 2000 })
  home = mkdtempSync(join(tmpdir(), 'sr-keep-outputs-'))
  engine = testEngine(home)
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token: sandbox.token })
})
afterAll(async () => {
  await engine.close()
  await sandbox.close()
})

async function submit(messages: string[]): Promise<string> {
  const connection = await engine.connect({ env: 'Local' })
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows: messages.map((message, i) => ({ message, sequence: i + 1 })),
  })
  return (await engine.submissions.send(connection, entry)).runId
}

/** A bridge service that watches runs briskly and saves outputs under `outputs`. */
function followingService(outputs: string) {
  return browserBridgeService(engine, {
    watchMinMs: 20,
    watchMaxMs: 100,
    submissionsCheckMs: 20,
    dialogs: { defaultOutputsFolder: () => outputs },
  })
}

it('saves a watched run’s outputs as soon as it ends, and the overview says where', async () => {
  const outputs = join(home, 'outputs')
  const service = followingService(outputs)
  try {
    const saved = pushedEvents(service, 'outputsSaved')
    await service.handlers.watchRuns({ environment: 'Local' }, http)
    const runId = await submit(['one', 'two', 'three [[fail]]'])
    await until(() => saved.some((e) => e.runId === runId))
    const event = saved.find((e) => e.runId === runId)!
    expect(event).toMatchObject({
      environment: 'Local',
      folder: join(outputs, runFolderName(runId)),
      failed: [],
    })
    expect(event.savedFiles).toBeGreaterThanOrEqual(2)
    const files = readdirSync(event.folder, { recursive: true, withFileTypes: true })
    expect(files.filter((f) => f.isFile())).toHaveLength(event.savedFiles)
    const overview = await service.handlers.getRunOverview({ environment: 'Local', runId }, http)
    expect(overview).toMatchObject({ savedFolder: event.folder, savedFiles: event.savedFiles })
  } finally {
    service.dispose()
  }
})

it('saves nothing on its own when the setting is off', async () => {
  const outputs = join(home, 'outputs-off')
  const service = followingService(outputs)
  try {
    await service.handlers.updateSettings({ autoSaveOutputs: false }, http)
    const saved = pushedEvents(service, 'outputsSaved')
    const ended = pushedEvents(service, 'runEnded')
    await service.handlers.watchRuns({ environment: 'Local' }, http)
    const runId = await submit(['alone'])
    await until(() => ended.some((e) => e.run.runId === runId))
    // A save the user asks for afterwards still works, and it is the only one.
    const asked = await service.handlers.downloadRun({ environment: 'Local', runId }, http)
    expect(asked?.savedFiles).toBe(1)
    expect(saved).toEqual([])
  } finally {
    await service.handlers.updateSettings({ autoSaveOutputs: true }, http)
    service.dispose()
  }
})

it('saves a short run that had already ended when the list first saw it', async () => {
  const outputs = join(home, 'outputs-short')
  // Looks only when a submission from this computer is noticed: the run is over by then.
  const service = browserBridgeService(engine, {
    submissionsCheckMs: 1000,
    dialogs: { defaultOutputsFolder: () => outputs },
  })
  try {
    const saved = pushedEvents(service, 'outputsSaved')
    await service.handlers.watchRuns({ environment: 'Local' }, http)
    const runId = await submit(['quick'])
    await until(() => saved.some((e) => e.runId === runId))
    expect(saved.find((e) => e.runId === runId)).toMatchObject({ savedFiles: 1, failed: [] })
  } finally {
    service.dispose()
  }
})
