// A run whose detail is larger than any answer read whole (2,600 rows, each answered with an
// inline output of about 15 KB, under the sandbox's 16 KB for inline outputs: a detail of some
// 40 MB), through the real sandbox over HTTP: the
// Bridge watches it with its page open to its end, and its outputs are saved, one file per row.
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import { MAX_ANSWER_BYTES } from '../../src/core/service/limits'
import { paths } from '../../src/shared/contract'
import { browserBridgeService, engineOnLocal, http, pushedEvents } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

const ROWS = 2_600
const TOKEN = 'tok-big'
const sandbox = useTestSandbox({
  taskMs: 0,
  concurrency: 64,
  tokens: [TOKEN],
  seed: {
    users: [{ userId: 1, name: 'Ada', token: TOKEN }],
    officialTemplates: [
      {
        skill: 'echo',
        schema: {
          templateId: 'long-echo',
          name: 'Long echo',
          columns: [{ fieldKey: 'note', headerLabel: 'Note', order: 0 }],
          fields: [{ key: 'note', label: 'Note', type: 'text', required: true }],
        },
      },
    ],
  },
})
let engine: Engine
let connection: Connection
let home: string

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sr-big-detail-'))
  ;({ engine, connection } = await engineOnLocal(home, { url: sandbox.url, token: TOKEN }))
})
afterAll(async () => {
  await engine?.close()
})

it('watches a run whose detail passes the old answer limit to its end, and saves its outputs', async () => {
  const note = (i: number) => `Row ${i}: ${'lorem ipsum dolor sit amet '.repeat(550)}`
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'long-echo' },
    rows: Array.from({ length: ROWS }, (_, i) => ({ note: note(i) })),
  })
  const { runId } = await engine.submissions.send(connection, entry)

  const service = browserBridgeService(engine, { watchMinMs: 200, watchMaxMs: 1000 })
  const changes = pushedEvents(service, 'runDetailChanged')
  const ended = pushedEvents(service, 'runEnded')
  await service.handlers.watchRun({ environment: 'Local', runId }, http)
  await until(() => ended.some((e) => e.run.runId === runId), 240_000)
  await until(() => changes.some((c) => c.run.status === 'succeeded'), 30_000)

  // The detail the service answers is larger than any answer read whole.
  const answer = await fetch(sandbox.url + paths.run(runId), {
    headers: { Authorization: `Bearer ${TOKEN}` },
  })
  expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(MAX_ANSWER_BYTES)

  // Every task and output reached the page, each once, and the last push says it ended.
  const tasks = new Map<string, string>()
  const outputs = new Set<string>()
  for (const change of changes) {
    for (const task of change.tasks) tasks.set(task.taskId, task.status)
    for (const output of change.artifacts) outputs.add(output.artifactId)
  }
  expect(changes.at(-1)).toMatchObject({ taskCount: ROWS, artifactCount: ROWS })
  expect(tasks.size).toBe(ROWS)
  expect([...tasks.values()].every((status) => status === 'succeeded')).toBe(true)
  expect(outputs.size).toBe(ROWS)

  await service.handlers.updateSettings({ outputsFolder: join(home, 'outputs') }, http)
  const saved = await service.handlers.downloadRun({ environment: 'Local', runId }, http)
  expect(saved).toMatchObject({ savedFiles: ROWS, failed: [] })
  expect(readdirSync(join(home, 'outputs', runFolderName(runId)))).toHaveLength(ROWS)
  service.dispose()
}, 300_000)
