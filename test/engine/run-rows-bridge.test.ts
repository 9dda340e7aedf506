// A big run's page through the Bridge, against the real sandbox over HTTP: its overview comes
// without its rows (their counts instead), its rows and outputs are asked a window at a time
// (getRunRows, getRunOutputs) from what the engine stored, and while it is followed its changes
// come as counts, the stored rows moving with them. Every run counts as big here (windowedFrom).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import { browserBridgeService, pushedEvents, testEngine } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

const sandbox = useTestSandbox({ taskMs: 40 })
let engine: Engine
const http = { transport: 'http' } as const

beforeAll(async () => {
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-run-rows-bridge-')))
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token: sandbox.token })
})
afterAll(async () => {
  await engine.close()
})

/** Sends rows of row-echo, one in every ten failing, and returns the new run's id. */
async function submit(rowCount: number): Promise<string> {
  const connection = await engine.connect({ env: 'Local' })
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows: Array.from({ length: rowCount }, (_, i) => ({
      message: i % 10 === 3 ? `row ${i} [[fail]]` : `row ${i}`,
    })),
  })
  return (await engine.submissions.send(connection, entry)).runId
}

it('shows a big run a window at a time, from what the engine stored as it followed it', async () => {
  const service = browserBridgeService(engine, {
    followMinMs: 20,
    followMaxMs: 100,
    windowedFrom: 5,
  })
  const changes = pushedEvents(service, 'runDetailChanged')
  const ended = pushedEvents(service, 'runEnded')
  const runId = await submit(60)
  const ref = { environment: 'Local', runId }

  const overview = await service.handlers.getRunOverview(ref, http)
  expect(overview.detail.tasks).toEqual([])
  expect(overview.detail.artifacts).toEqual([])
  expect(overview.rows?.tasks).toBe(60)

  await service.handlers.followRun(ref, http)
  await until(() => ended.some((e) => e.run.runId === runId), 20_000)
  const mine = changes.filter((c) => c.runId === runId)
  expect(mine.length).toBeGreaterThan(0)
  for (const c of mine) expect(c).toMatchObject({ tasks: [], artifacts: [] })
  expect(mine.at(-1)!.rows).toEqual({ tasks: 60, failed: 6, outputs: 54 })

  const final = await (await engine.connect({ env: 'Local' })).client.run(runId)
  const failedFirst = [
    ...final.tasks.filter((t) => t.status === 'failed'),
    ...final.tasks.filter((t) => t.status !== 'failed'),
  ]
  const windows = []
  for (let from = 0; from < 60; from += 25)
    windows.push(...(await service.handlers.getRunRows({ ...ref, from, count: 25 }, http)).rows)
  expect(windows).toEqual(failedFirst)
  const failed = await service.handlers.getRunRows(
    { ...ref, from: 4, count: 25, filter: 'failed' },
    http,
  )
  expect(failed).toEqual({ runId, total: 6, rows: failedFirst.slice(4, 6) })

  const outputs = await service.handlers.getRunOutputs({ ...ref, from: 50, count: 25 }, http)
  expect(outputs.total).toBe(54)
  expect(outputs.outputs.map((a) => a.artifactId)).toEqual(
    final.artifacts.slice(50).map((a) => a.artifactId),
  )
  // The window names outputs; their content is shown by a preview, read from what was stored.
  expect(outputs.outputs.every((a) => a.inlineText === '' && a.accessUrl === '')).toBe(true)
  const last = final.artifacts.at(-1)!
  const preview = await service.handlers.previewArtifact(
    { ...ref, artifactId: last.artifactId },
    http,
  )
  expect(preview).toMatchObject({ artifactId: last.artifactId, mimeType: last.mimeType })
  expect(preview.text).not.toBe('')
  service.dispose()
})
