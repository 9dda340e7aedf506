// The command line sends a sheet larger than one request as parts under one consent, against a
// sandbox started as a user would (`skill-runner sandbox --max-rows 5`); and a process killed
// between parts (kill -9) is finished by the same command again with no part sent twice.
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paths, type RunDetail, type RunList } from '../../src/shared/contract'
import { SANDBOX_DEMO_TOKEN } from '../../src/sandbox/options'
import { testEngine } from '../helpers/engine'
import { runCliCaptured, spawnCliSource } from '../helpers/cli'
import { call, startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

function sheet(dir: string, rows: number): string {
  const csv = join(dir, 'rows.csv')
  const lines = Array.from({ length: rows }, (_, i) => `row ${i + 1}`)
  writeFileSync(csv, ['Message', ...lines].join('\n'))
  return csv
}

describe('run on a sandbox started with --max-rows 5', () => {
  let server: ChildProcess
  let url = ''

  beforeAll(async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'sr-parts-sandbox-'))
    server = spawnCliSource(['sandbox', '--port', '0', '--max-rows', '5', '--task-ms', '20'], {
      SKILL_RUNNER_HOME: scratch,
    })
    let said = ''
    server.stdout!.setEncoding('utf8').on('data', (t: string) => (said += t))
    await until(() => /listening on (\S+)/.test(said), 60_000)
    url = /listening on (\S+)/.exec(said)![1]!
  }, 90_000)
  afterAll(async () => {
    server?.kill('SIGTERM')
    if (server && server.exitCode === null) await once(server, 'exit')
  })

  it('sends 15 rows as three runs under one --yes and follows every part to its end', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sr-parts-cli-'))
    const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: SANDBOX_DEMO_TOKEN }
    const args = ['run', sheet(home, 15), '--template', 'row-echo', '--base-url', url]
    const { code, stdout, stderr } = await runCliCaptured(
      [...args, '--yes', '--watch', '--json'],
      env,
    )
    expect(stderr).toContain('part 3 of 3: run')
    expect(code).toBe(0)
    const answer = JSON.parse(stdout) as RunDetail & { parts: RunDetail[] }
    expect(answer.parts.map((p) => [p.run.status, p.run.totalTasks])).toEqual([
      ['succeeded', 5],
      ['succeeded', 5],
      ['succeeded', 5],
    ])
    expect(answer.run.runId).toBe(answer.parts[0]!.run.runId)

    // History and the batch hold the three runs as one sheet.
    const history = JSON.parse((await runCliCaptured(['history', '--json'], env)).stdout) as {
      items: { runId: string; batchId: string; sendKind: string }[]
    }
    const ids = answer.parts.map((p) => p.run.runId)
    const parts = history.items.filter((i) => ids.includes(i.runId))
    expect(parts.map((i) => i.sendKind)).toEqual(['part', 'part', 'part'])
    expect(new Set(parts.map((i) => i.batchId)).size).toBe(1)
    const batch = await runCliCaptured(['batch', 'show', ids[2]!, '--base-url', url], env)
    expect(batch.stdout + batch.stderr).toContain('15 rows: 15 succeeded')

    // The limit was learnt from the first refusal: the next plan says the parts before asking.
    const next = await runCliCaptured([...args, '--again', '--max-cost', '1'], env)
    expect(next.stderr).toContain('15 rows go as 3 parts of at most 5 rows')
    expect(next.code).not.toBe(0)
  }, 90_000)
})

describe('a process killed between parts', () => {
  let sandbox: TestSandbox
  const log: string[] = []
  beforeAll(async () => {
    sandbox = await startTestSandbox({ maxRows: 5, log: (line) => log.push(line) })
  })
  afterAll(() => sandbox?.close())

  it('the same command again sends only what is left, each part once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sr-parts-crash-'))
    const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token }
    const csv = sheet(home, 15)
    expect(
      (await runCliCaptured(['env', 'add', 'Local', '--base-url', sandbox.url], env)).code,
    ).toBe(0)
    const rows = await runCliCaptured(['env', 'rows', 'Local', '5'], env)
    expect(rows.stderr + rows.stdout).toContain('at most 5 rows per request (set on this computer)')
    const args = ['run', csv, '--template', 'row-echo', '--env', 'Local', '--yes', '--json']

    // The first part goes through; the second is made by the service, whose answer is held
    // while the process is killed.
    const runRows = paths.runRows('row-echo')
    sandbox.injectFault({ method: 'POST', path: runRows })
    sandbox.injectFault({ method: 'POST', path: runRows, holdAnswerMs: 3000 })
    const child = spawnCliSource(args, env, 'ignore')
    await until(() => log.some((l) => l.startsWith('holding the answer')), 60_000)
    child.kill('SIGKILL')
    await once(child, 'exit')

    const engine = testEngine(home, { tokenOverride: sandbox.token })
    const connection = await engine.connect({ env: 'Local' })
    const journaled = engine.submissions.unanswered(connection.historyKey)
    await engine.close()
    // The part whose answer was lost is journaled as sent; the third was not journaled yet.
    expect(journaled.map((e) => [e.state, e.rowCount])).toEqual([['sent', 5]])

    const again = await runCliCaptured(args, env)
    expect(again.stderr).toContain('1 part was sent before')
    expect(again.code).toBe(0)
    const answer = JSON.parse(again.stdout) as { parts: { clientRequestId: string }[] }
    expect(answer.parts[1]!.clientRequestId).toBe(journaled[0]!.clientRequestId)

    // Once the held answer is given too, the service has made each part once: 15 rows in 3 runs.
    await until(() => log.some((l) => l.startsWith('let go of the held answer')), 60_000)
    const runs = await call<RunList>(sandbox, `${paths.runs()}?pageSize=100`)
    expect(runs.body.items.map((r) => r.totalTasks)).toEqual([5, 5, 5])
  }, 90_000)
})
