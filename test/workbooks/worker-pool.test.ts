// The engine keeps one workbook worker between checks: a later read goes to the same thread
// without starting one, while a crash, a cancel or a closed engine never hands a later read a
// worker in an unknown state, and a kept worker never keeps the process alive. Which thread
// answered is told by a real worker file that counts its jobs; the reader's own answers are
// checked with the real entry.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkerPool, parseInputWorkbook, readInputWorkbook } from '../../src/core/workbooks'
import type { ParseOptions } from '../../src/core/workbooks/worker/client'
import { answeringWorker, echoSchema as echo } from './support/workers'

const dir = mkdtempSync(join(tmpdir(), 'sr-worker-pool-'))

/** Each counting worker's thread, written when it starts. */
const startLog = join(dir, 'started.log')
writeFileSync(startLog, '')
const started = () => readFileSync(startLog, 'utf8').split('\n').filter(Boolean)

/**
 * A worker that reads nothing: it answers "thread <id> job <n>", or, by the file's name, ends
 * itself (crash), never ends (hang: it says one row is read) or refuses the file as the reader does one over a limit.
 */
const counting = answeringWorker(
  dir,
  'counting-worker.mjs',
  `import { appendFileSync } from 'node:fs'
appendFileSync(${JSON.stringify(startLog)}, 'thread ' + threadId + '\\n')
let jobs = 0
parentPort.on('message', (job) => {
  if (job.kind === 'collect') return
  jobs += 1
  const path = job.source.path
  if (path.endsWith('crash')) process.exit(3)
  if (path.endsWith('hang')) return parentPort.postMessage({ type: 'progress', rowsRead: 1 })
  if (path.endsWith('refuse'))
    return parentPort.postMessage({ type: 'failed', message: 'over', userMessage: { message: 'Too many rows.', nextStep: 'Split it.' } })
  parentPort.postMessage({ type: 'done', result: { valid: true, fileErrors: ['thread ' + threadId + ' job ' + jobs] } })
})
parentPort.postMessage({ type: 'started' })
`,
)

const kept: WorkerPool[] = []
function keptWorker() {
  const worker = new WorkerPool()
  kept.push(worker)
  return worker
}
afterEach(() => {
  for (const worker of kept.splice(0)) worker.close()
})

async function answer(path: string, worker: WorkerPool, more: ParseOptions = {}) {
  const result = await parseInputWorkbook({ path: join(dir, path) }, echo, {
    workerFile: counting,
    pool: worker,
    ...more,
  })
  return result.fileErrors[0]!
}

const threadOf = (said: string) => said.split(' job ')[0]

/** The next read goes to a new worker: its first job, on another thread than `before`'s. */
async function expectNewWorker(worker: WorkerPool, before: string) {
  const next = await answer('b.xlsx', worker)
  expect(next).toMatch(/job 1$/)
  expect(threadOf(next)).not.toBe(threadOf(before))
}

describe('a workbook worker kept between reads', () => {
  it('answers a later read on the same thread, without starting another', async () => {
    const worker = keptWorker()
    const first = await answer('a.xlsx', worker)
    const second = await answer('b.xlsx', worker)
    expect(first).toMatch(/job 1$/)
    expect(second).toBe(`${threadOf(first)} job 2`)
  })

  it('starts a worker of its own for a read that runs while the kept one is busy', async () => {
    const worker = keptWorker()
    await answer('a.xlsx', worker)
    const [one, two] = await Promise.all([answer('b.xlsx', worker), answer('c.xlsx', worker)])
    expect(threadOf(one)).not.toBe(threadOf(two))
    expect([one, two].filter((said) => said.endsWith('job 2'))).toHaveLength(1)
    expect([one, two].filter((said) => said.endsWith('job 1'))).toHaveLength(1)
  })

  it('keeps a worker that refused a file, and gives the refusal as before', async () => {
    const worker = keptWorker()
    const first = await answer('a.xlsx', worker)
    expect(await answer('big-refuse', worker)).toBe('Too many rows.')
    expect(await answer('b.xlsx', worker)).toBe(`${threadOf(first)} job 3`)
  })

  it('gives the clear message for a crash, and a new worker to the next read', async () => {
    const worker = keptWorker()
    const first = await answer('a.xlsx', worker)
    expect(await answer('bad-crash', worker)).toMatch(/^Checking the workbook stopped unexpectedly/)
    await expectNewWorker(worker, first)
  })

  it('ends a cancelled read’s worker; the next read gets a new one', async () => {
    const worker = keptWorker()
    const first = await answer('a.xlsx', worker)
    const controller = new AbortController()
    // Cancelled once the worker is at work on it.
    const hanging = answer('slow-hang', worker, {
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('cancelled by the test')),
    })
    await expect(hanging).rejects.toThrow('cancelled by the test')
    await expectNewWorker(worker, first)
  })

  it('reads in the worker warm() started, without starting another', async () => {
    const worker = keptWorker()
    const before = started().length
    worker.warm({ workerFile: counting })
    worker.warm({ workerFile: counting })
    const first = await answer('a.xlsx', worker)
    expect(first).toMatch(/job 1$/)
    expect(started().slice(before)).toEqual([threadOf(first)])
    worker.warm({ workerFile: counting })
    expect(await answer('b.xlsx', worker)).toBe(`${threadOf(first)} job 2`)
    expect(started().slice(before)).toEqual([threadOf(first)])
  })

  it('reads on the calling thread when the worker warm() started cannot load', async () => {
    const worker = keptWorker()
    const missing = join(dir, 'missing-worker.js')
    const path = join(dir, 'warm.csv')
    writeFileSync(path, 'Message,Sequence number\nhello,1\n')
    worker.warm({ workerFile: missing })
    const result = await parseInputWorkbook({ path }, echo, { workerFile: missing, pool: worker })
    expect(result).toEqual(await readInputWorkbook({ path }, echo))
  })

  it('keeps nothing once closed, and still reads', async () => {
    const worker = keptWorker()
    const first = await answer('a.xlsx', worker)
    worker.close()
    const next = await answer('b.xlsx', worker)
    const after = await answer('c.xlsx', worker)
    expect(next).toMatch(/job 1$/)
    expect(after).toMatch(/job 1$/)
    expect(new Set([first, next, after].map(threadOf)).size).toBe(3)
  })

  it('reads workbook after workbook with the real reader, each as on the calling thread', async () => {
    const worker = keptWorker()
    const good = join(dir, 'good.csv')
    const other = join(dir, 'other.csv')
    const broken = join(dir, 'broken.xlsx')
    writeFileSync(good, 'Message,Sequence number\nhello,1\nagain,two\n')
    writeFileSync(other, 'Message,Sequence number\nthird,3\n')
    writeFileSync(broken, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(40)]))
    for (const path of [good, broken, other, good]) {
      const inWorker = await parseInputWorkbook({ path }, echo, { pool: worker })
      expect(inWorker).toEqual(await readInputWorkbook({ path }, echo))
    }
  })

  it('never keeps the process alive once its read is done', () => {
    const module = pathToFileURL(join(import.meta.dirname, '../../src/core/workbooks/index.ts'))
    const script = join(dir, 'one-read.mjs')
    writeFileSync(
      script,
      `const { WorkerPool, parseInputWorkbook } = await import(${JSON.stringify(module.href)})
const kept = new WorkerPool()
const result = await parseInputWorkbook({ path: 'x.xlsx' }, null, { workerFile: ${JSON.stringify(counting)}, kept })
console.log(result.fileErrors[0])
`,
    )
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(child.stderr).toBe('')
    expect(child.stdout.trim()).toMatch(/job 1$/)
    expect(child.signal).toBeNull()
    expect(child.status).toBe(0)
  })
})
