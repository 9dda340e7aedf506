import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/service'
import type { Connection, Engine } from '../../src/core/engine'
import { paths } from '../../src/shared/contract'
import { testEngine } from '../helpers/engine'
import { runCount as sandboxRunCount, startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { countedTimers, until } from '../helpers/wait'

let sandbox: TestSandbox
let home: string
const engines: Engine[] = []

function engine(): Engine {
  const e = testEngine(home, {
    tokenOverride: sandbox.token,
    api: { backoffMs: 5, maxBackoffMs: 20, timeoutMs: 5000 },
  })
  engines.push(e)
  return e
}

const runCount = () => sandboxRunCount(sandbox)

beforeEach(async () => {
  sandbox = await startTestSandbox()
  home = mkdtempSync(join(tmpdir(), 'sr-submissions-'))
})
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close()
  await sandbox.close()
})

const rows = [{ message: 'one' }, { message: 'two', sequence: 2 }]
const template = { kind: 'template' as const, templateId: 'row-echo' }

describe('submission journal', () => {
  it('journals before sending and records the run when the answer comes', async () => {
    const e = engine()
    const connection = await e.connect({ baseUrl: sandbox.url })
    const entry = await e.submissions.journal(connection, { target: template, rows })
    expect(entry.state).toBe('pending')
    expect(entry.clientRequestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await runCount()).toBe(0)
    const sent = await e.submissions.send(connection, entry)
    expect(sent.state).toBe('accepted')
    expect(sent.runId).not.toBe('')
    expect(e.submissions.byRun(connection.historyKey, sent.runId)?.id).toBe(entry.id)
    // Accepted: the same rows submitted again later are a new submission with a new id.
    const again = await e.submissions.journal(connection, { target: template, rows })
    expect(again.clientRequestId).not.toBe(entry.clientRequestId)
  })

  it('a lost answer is resent with the same id, and the service makes one run', async () => {
    const e = engine()
    const connection = await e.connect({ baseUrl: sandbox.url })
    // Every attempt of this process loses its answer after the server acted.
    sandbox.injectFault({
      method: 'POST',
      path: paths.runRows('row-echo'),
      drop: 'after',
      times: 4,
    })
    const entry = await e.submissions.journal(connection, { target: template, rows })
    await expect(e.submissions.send(connection, entry)).rejects.toBeInstanceOf(ApiError)
    expect(e.submissions.get(entry.id).state).toBe('sent')
    expect(await runCount()).toBe(1)

    // The user runs the same command again: the unanswered entry is found and resent.
    const second = engine()
    const connection2 = await second.connect({ baseUrl: sandbox.url })
    const again = await second.submissions.journal(connection2, { target: template, rows })
    expect(again.clientRequestId).toBe(entry.clientRequestId)
    const sent = await second.submissions.send(connection2, again)
    expect(sent.state).toBe('accepted')
    expect(await runCount()).toBe(1)
  })

  it('a crash between journal and send resends the same id on the next start', async () => {
    const first = engine()
    const c1 = await first.connect({ baseUrl: sandbox.url })
    const entry = await first.submissions.journal(c1, { target: template, rows })
    await first.close()
    engines.splice(engines.indexOf(first), 1)

    const second = engine()
    const c2 = await second.connect({ baseUrl: sandbox.url })
    expect(second.submissions.unanswered(c2.historyKey).map((s) => s.clientRequestId)).toEqual([
      entry.clientRequestId,
    ])
    const done = await second.submissions.resendUnanswered(c2)
    expect(done).toHaveLength(1)
    expect(done[0]!.state).toBe('accepted')
    expect(await runCount()).toBe(1)
  })

  it('a refusal is final: the entry is marked refused and its error kept', async () => {
    const e = engine()
    const connection = await e.connect({ baseUrl: sandbox.url })
    const entry = await e.submissions.journal(connection, {
      target: { kind: 'template', templateId: 'no-such-template' },
      rows,
    })
    await expect(e.submissions.send(connection, entry)).rejects.toMatchObject({ status: 404 })
    const after = e.submissions.get(entry.id)
    expect(after.state).toBe('refused')
    expect(after.error).toMatch(/no-such-template|does not know/)
  })

  it('history search finds submissions by file, template, run id and status', async () => {
    const e = engine()
    const connection = await e.connect({ baseUrl: sandbox.url })
    const input = join(home, 'orders-march.xlsx')
    await import('node:fs/promises').then((fs) => fs.writeFile(input, 'not really a workbook'))
    const entry = await e.submissions.journal(connection, {
      target: template,
      rows,
      inputPath: input,
    })
    const sent = await e.submissions.send(connection, entry)
    expect(sent.inputCopyPath).toContain('orders-march.xlsx')
    e.recordRuns(connection.historyKey, [
      { ...(await connection.client.run(sent.runId)).run, status: 'succeeded' },
    ])
    expect(e.submissions.search({ search: 'march' }).map((s) => s.id)).toEqual([entry.id])
    expect(e.submissions.search({ search: 'row-echo' })).toHaveLength(1)
    expect(e.submissions.search({ search: sent.runId.slice(0, 8) })).toHaveLength(1)
    expect(e.submissions.search({ search: 'succeeded' })).toHaveLength(1)
    expect(e.submissions.search({ search: 'nothing-like-this' })).toHaveLength(0)
    expect(e.submissions.search({ search: '100%' })).toHaveLength(0)
  })

  it('history search finds what History shows: rows that failed, the environment, the date as written', async () => {
    const e = engine()
    await e.addEnvironment({ name: 'Acme staging', baseUrl: sandbox.url, token: sandbox.token })
    const connection = await e.connect({ env: 'Acme staging' })
    const entry = await e.submissions.journal(connection, { target: template, rows })
    const sent = await e.submissions.send(connection, entry)
    const { run } = await connection.client.run(sent.runId)
    // Succeeded with a row failed: History says "Finished with 1 failed row".
    e.recordRuns(connection.historyKey, [
      { ...run, status: 'succeeded', completedTasks: 1, failedTasks: 1, totalTasks: 2 },
    ])
    const found = (search: string) => e.submissions.search({ search }).map((s) => s.id)
    expect(found('failed')).toEqual([entry.id])
    expect(found('Finished with')).toEqual([entry.id])
    expect(found('acme STAGING')).toEqual([entry.id])
    const day = new Date(entry.createdAtMs)
    const month = day.toLocaleString('en-US', { month: 'short' })
    const long = day.toLocaleString('en-US', { month: 'long' })
    expect(found(`${month} ${day.getDate()}`)).toEqual([entry.id])
    expect(found(`${day.getDate()} ${long} ${day.getFullYear()}`)).toEqual([entry.id])
    expect(found(`${month} ${day.getDate()}, ${day.getFullYear() - 1}`)).toEqual([])
    expect(found(`${month} ${(day.getDate() % 28) + 1}`)).toEqual([])
    e.recordRuns(connection.historyKey, [
      { ...run, status: 'succeeded', completedTasks: 2, failedTasks: 0, totalTasks: 2 },
    ])
    expect(found('failed')).toEqual([])
  })
})

describe('run watcher', () => {
  /** Journals rows of row-echo and sends them straight away, as `run` does. */
  async function send(e: Engine, connection: Connection, rowsToSend = rows) {
    const entry = await e.submissions.journal(connection, { target: template, rows: rowsToSend })
    return e.submissions.send(connection, entry)
  }

  it('watches a run to its end with list requests, and stops asking when nothing is active', async () => {
    const e = engine()
    const connection = await e.connect({ baseUrl: sandbox.url })
    const entry = await send(e, connection)
    const timers = countedTimers()
    const { setTimer, clearTimer } = timers
    const watcher = e.watcher(connection, { minMs: 10, maxMs: 40, setTimer, clearTimer })
    const progress: string[] = []
    watcher.on('progress', (run) => progress.push(run.status))
    const ended = await watcher.waitFor(entry.runId)
    expect(ended.status).toBe('succeeded')
    expect(progress.at(-1)).toBe('succeeded')
    const requests = watcher.requests
    // The watcher asks only when a timer fires: with none left, it has stopped asking.
    await until(() => timers.pending() === 0)
    expect(watcher.requests).toBe(requests)
    expect(watcher.activeRunIds).toEqual([])
    watcher.stop()
  })

  it('fetches details only for a focused run', async () => {
    const e = engine()
    const connection = await e.connect({ baseUrl: sandbox.url })
    const a = await send(e, connection)
    const b = await send(e, connection, [{ message: 'other' }])
    const watcher = e.watcher(connection, { minMs: 10, maxMs: 40 })
    const details: string[] = []
    watcher.on('detail', (d) => details.push(d.run.runId))
    watcher.focus(a.runId)
    watcher.watch(b.runId)
    await Promise.all([watcher.waitFor(a.runId), watcher.waitFor(b.runId)])
    expect(details.length).toBeGreaterThan(0)
    expect(new Set(details)).toEqual(new Set([a.runId]))
    watcher.stop()
  })
})
