// A run's detail over real HTTP, read as it arrives: larger than any answer read whole, a field
// at fault named as before, one oversized output refused in words, a body cut midway read again
// from its start, and a deadline that a service still sending never meets.
import { expect, it } from 'vitest'
import { ApiError } from '../../src/core/service'
import { MAX_ANSWER_BYTES } from '../../src/core/service/limits'
import { MAX_ITEM_CHARS } from '../../src/core/service/run-detail-stream'
import { artifact, run, task } from './run-detail-fixtures'
import { useHostileService } from './hostile-service'

const hostile = useHostileService({ maxAttempts: 1, backoffMs: 1 })
const clientOf = hostile.clientOf

/** A detail of `rows` tasks, each with an output of `size` characters. */
function bigDetail(rows: number, size: number): string {
  const text = 'w'.repeat(size)
  const tasks = Array.from({ length: rows }, (_, i) => task(i))
  const artifacts = Array.from({ length: rows }, (_, i) => ({ ...artifact(i), inlineText: text }))
  return JSON.stringify({ run, tasks, artifacts })
}

it('a detail the schema refuses is still an error that names the field', async () => {
  const answers = [
    { run, tasks: [task(0), task(1)], artifacts: [artifact(0)] },
    { run, tasks: [task(0), { ...task(1), taskId: undefined }] },
  ]
  const client = await clientOf((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(answers.shift()))
  })
  const detail = await client.run('run_1')
  expect(detail.tasks.map((t) => t.taskId)).toEqual(['task_0', 'task_1'])
  expect(detail.run).not.toHaveProperty('extra')
  const error = await client.run('run_1').catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).message).toContain('tasks.1.taskId is missing')
})

it('reads a detail larger than any answer read whole', async () => {
  const text = bigDetail(10_000, 4096)
  expect(text.length).toBeGreaterThan(MAX_ANSWER_BYTES)
  const client = await clientOf((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(text)
  })
  const seen: number[] = []
  const head = await client.readRun('run_1', () => ({
    task: () => {},
    artifact: (a) => seen.push(a.sourceRowIndex),
  }))
  expect(head.run.runId).toBe('run_1')
  expect(seen).toHaveLength(10_000)
  expect(seen[9_999]).toBe(9_999)
})

it('refuses one oversized output in words that say it will not pass at another try', async () => {
  const client = await clientOf((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(bigDetail(2, MAX_ITEM_CHARS))
  })
  const error = await client.run('run_1').catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).kind).toBe('too-large')
  expect((error as ApiError).message).toBe(
    'The service sent one output of a run larger than 8 MB; Skill Runner stopped reading it.',
  )
  expect((error as ApiError).nextStep).toContain('as a file to download')
})

it('a body cut midway is read again from its start: every task handed on once', async () => {
  const text = bigDetail(2_000, 100)
  let answers = 0
  const client = await clientOf(
    (_req, res) => {
      answers += 1
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length })
      if (answers > 1) return res.end(text)
      res.write(text.slice(0, text.length / 2), () => res.destroy())
    },
    { maxAttempts: 3 },
  )
  const detail = await client.run('run_1')
  expect(answers).toBe(2)
  expect(detail.tasks).toHaveLength(2_000)
  expect(new Set(detail.artifacts.map((a) => a.artifactId)).size).toBe(2_000)
})

it('waits for a detail still coming past the deadline, not for one gone quiet', async () => {
  const text = bigDetail(50, 10)
  const pieces = 6
  const slow = await clientOf(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const size = Math.ceil(text.length / pieces)
      let sent = 0
      const timer = setInterval(() => {
        res.write(text.slice(sent, sent + size))
        sent += size
        if (sent >= text.length) {
          clearInterval(timer)
          res.end()
        }
      }, 80)
    },
    { timeoutMs: 300 },
  )
  // Six pieces 80 ms apart: twice the deadline in all, never quiet for as long as it.
  expect((await slow.run('run_1')).tasks).toHaveLength(50)
  const quiet = await clientOf(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write(text.slice(0, 100))
    },
    { timeoutMs: 300 },
  )
  const error = await quiet.run('run_1').catch((e: unknown) => e)
  expect((error as ApiError).kind).toBe('timeout')
})
