// A run's detail is read without zod when it can be (a big run's zod parse made tens of MB of
// garbage at every look): whatever the quick reader returns must be exactly what the contract's
// schema returns, key for key; whatever it cannot tell, zod still parses, with the same error.
import { afterEach, expect, it } from 'vitest'
import { ApiClient, ApiError } from '../../src/core/service'
import { readRunDetail } from '../../src/core/service/run-detail-reader'
import { runDetailSchema } from '../../src/shared/contract'
import { startHostileService, type HostileService } from './hostile-service'

const run = { runId: 'run_1', status: 'running', totalTasks: 2, completedTasks: 1, extra: 'x' }
const task = (i: number) => ({
  taskId: `task_${i}`,
  status: 'succeeded',
  sourceRowIndex: i,
  artifactCount: 1,
  errorMessage: '',
})
const artifact = (i: number) => ({
  artifactId: `art_${i}`,
  taskId: `task_${i}`,
  stepId: 'echo',
  portName: 'reply',
  sourceRowIndex: i,
  mimeType: 'text/plain',
  accessUrl: `http://127.0.0.1/a/${i}`,
  inlineText: `row ${i}`,
  createdAtUnix: 1_700_000_000,
})
const market = { listingId: 'lst_1', runId: 'run_1', taskFixedFeeT: 3 }

/** Answers the reader takes on its own: every one as zod reads it. */
const plain: Record<string, unknown> = {
  'every field': { run, market, tasks: [task(0), task(1)], artifacts: [artifact(0)] },
  'no market': { run, tasks: [task(0)], artifacts: [] },
  'an empty market (a template run)': { run, market: {}, tasks: [], artifacts: [] },
  'a null market': { run, market: null, tasks: [task(0)], artifacts: [artifact(0)] },
  'lists null or absent': { run, tasks: null },
  'descriptive fields null or absent': {
    run,
    tasks: [{ taskId: 't', status: 'queued', sourceRowIndex: 0, errorMessage: null }],
    artifacts: [{ artifactId: 'a', sourceRowIndex: 0, inlineText: null, createdAtUnix: null }],
  },
  'fields this app does not know': {
    run,
    tasks: [{ ...task(0), startedAtUnix: 5 }],
    artifacts: [{ ...artifact(0), sizeBytes: 10, labels: ['a'] }],
    next: 'x',
  },
  'a negative zero and a row 0': { run, tasks: [{ ...task(0), sourceRowIndex: -0 }] },
}

/** Answers the schema refuses: the reader leaves them to zod, which names the field. */
const refused: Record<string, unknown> = {
  'a task without an id': { run, tasks: [task(0), { ...task(1), taskId: undefined }] },
  'an empty task id': { run, tasks: [{ ...task(0), taskId: '' }] },
  'a row index that is not a whole number': { run, tasks: [{ ...task(0), sourceRowIndex: 1.5 }] },
  'a row index past safe integers': { run, artifacts: [{ ...artifact(0), sourceRowIndex: 2 ** 53 }] },
  'a count as text': { run, tasks: [{ ...task(0), artifactCount: '1' }] },
  'an output without its row': { run, artifacts: [{ ...artifact(0), sourceRowIndex: null }] },
  'a task that is a list': { run, tasks: [[1]] },
  'tasks that are not a list': { run, tasks: { 0: task(0) } },
  'no run': { tasks: [] },
  'a run without an id': { run: { status: 'running' }, tasks: [] },
  'a market that is text': { run, market: 'lst_1' },
  'an answer that is a list': [run],
}

it('reads a detail exactly as the schema does, key for key', () => {
  for (const [what, json] of Object.entries(plain)) {
    const read = readRunDetail(json)
    expect(read, what).toBeDefined()
    const parsed = runDetailSchema.parse(json)
    expect(read, what).toStrictEqual(parsed)
    // The same keys in the same order: what the window is sent is the same text.
    expect(JSON.stringify(read), what).toBe(JSON.stringify(parsed))
  }
})

it('leaves to the schema every answer it refuses', () => {
  for (const [what, json] of Object.entries(refused)) {
    expect(readRunDetail(json), what).toBeUndefined()
    expect(runDetailSchema.safeParse(json).success, what).toBe(false)
  }
})

let service: HostileService | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

it('a detail the schema refuses is still an error that names the field', async () => {
  const answers = [
    { run, tasks: [task(0), task(1)], artifacts: [artifact(0)] },
    { run, tasks: [task(0), { ...task(1), taskId: undefined }] },
  ]
  service = await startHostileService((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(answers.shift()))
  })
  const client = new ApiClient({ baseUrl: service.url, token: () => 'token-ada', maxAttempts: 1 })
  const detail = await client.run('run_1')
  expect(detail.tasks.map((t) => t.taskId)).toEqual(['task_0', 'task_1'])
  expect(detail.run).not.toHaveProperty('extra')
  const error = await client.run('run_1').catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).message).toContain('tasks.1.taskId is missing')
})
