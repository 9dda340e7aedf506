// kill -9 of `execute` after the service made the paid run but before this computer learned its
// answer: the history finds the run again on the service, and nothing is paid twice.
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { paths, type RunList } from '../../src/shared/contract'
import { runCliCaptured, spawnCliSource } from '../helpers/cli'
import {
  BUYER_SANDBOX,
  BUYER_TOKEN,
  LISTING_ARGS,
  LISTING_ID,
  buyerRunCount,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'
import { call, startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox
const log: string[] = []

beforeAll(async () => {
  sandbox = await startTestSandbox({ ...BUYER_SANDBOX, log: (line) => log.push(line) })
})
afterAll(async () => {
  await sandbox.close()
})

it('execute killed after the service made the run: history shows that run, the same command answers with it, one paid run', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-crash-execute-'))
  const file = join(home, 'ads.xlsx')
  await writeBuyerWorkbook(file, [
    ['Kettle', 'friendly', 20],
    ['Lamp', 'formal', null],
  ])
  const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: BUYER_TOKEN }
  const cli = (args: string[]) => runCliCaptured([...args, '--base-url', sandbox.url], env)
  const execute = ['execute', file, ...LISTING_ARGS, '--yes', '--json']

  // The service makes the run and stores its answer, then holds it; the process dies waiting.
  sandbox.injectFault({ method: 'POST', path: paths.execute(LISTING_ID), holdAnswerMs: 3000 })
  const child = spawnCliSource([...execute, '--base-url', sandbox.url], env, 'ignore')
  await until(() => log.some((l) => l.startsWith('holding the answer of POST')), 60_000)
  child.kill('SIGKILL')
  await once(child, 'exit')
  expect(await buyerRunCount(sandbox)).toBe(1)
  const runs = await call<RunList>(sandbox, paths.runs(), { token: BUYER_TOKEN })
  const paidRunId = runs.body.items[0]!.runId

  // After the restart, the history shows the run the service made, and sends nothing.
  const history = await cli(['history', '--json'])
  expect(history.code, history.stderr).toBe(0)
  const items = JSON.parse(history.stdout).items as { state: string; runId: string }[]
  expect(items).toHaveLength(1)
  expect(items[0]).toMatchObject({ state: 'accepted', runId: paidRunId })
  expect(await buyerRunCount(sandbox)).toBe(1)

  // The same command again answers with that run (exit 0), not a new paid one.
  const again = await cli(execute)
  expect(again.code, again.stderr).toBe(0)
  expect(JSON.parse(again.stdout).runId).toBe(paidRunId)
  await until(() => log.some((l) => l.startsWith('let go of the held answer of POST')), 60_000)
  expect(await buyerRunCount(sandbox)).toBe(1)
}, 90_000)

it('execute killed after the service made the run: the same command, without looking at the history first, answers with that run', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-crash-execute-'))
  const file = join(home, 'chairs.xlsx')
  await writeBuyerWorkbook(file, [['Chair', 'formal', 12]])
  const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: BUYER_TOKEN }
  const execute = ['execute', file, ...LISTING_ARGS, '--yes', '--json', '--base-url', sandbox.url]
  const before = await buyerRunCount(sandbox)

  log.length = 0
  sandbox.injectFault({ method: 'POST', path: paths.execute(LISTING_ID), holdAnswerMs: 3000 })
  const child = spawnCliSource(execute, env, 'ignore')
  await until(() => log.some((l) => l.startsWith('holding the answer of POST')), 60_000)
  child.kill('SIGKILL')
  await once(child, 'exit')
  expect(await buyerRunCount(sandbox)).toBe(before + 1)

  const again = await runCliCaptured(execute, env)
  expect(again.code, again.stderr).toBe(0)
  const runs = await call<RunList>(sandbox, paths.runs(), { token: BUYER_TOKEN })
  expect(JSON.parse(again.stdout).runId).toBe(runs.body.items[0]!.runId)
  await until(() => log.some((l) => l.startsWith('let go of the held answer of POST')), 60_000)
  expect(await buyerRunCount(sandbox)).toBe(before + 1)
}, 90_000)
