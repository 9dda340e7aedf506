// A run's detail is read without zod when it can be (a big run's zod parse made tens of MB of
// garbage at every look): whatever the quick reader returns must be exactly what the contract's
// schema returns, key for key; whatever it cannot tell, zod still parses, with the same error.
import { afterEach, expect, it } from 'vitest'
import { ApiClient, ApiError } from '../../src/core/service'
import { readRunDetail } from '../../src/core/service/run-detail-reader'
import { runDetailSchema } from '../../src/shared/contract'
import { artifact, plain, refused, run, task } from './run-detail-fixtures'
import { startHostileService, type HostileService } from './hostile-service'

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
