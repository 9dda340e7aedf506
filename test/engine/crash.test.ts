import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCliCaptured, spawnCliSource } from '../helpers/cli'
import { paths } from '../../src/shared/contract'
import { testEngine } from '../helpers/engine'
import { call, startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
const log: string[] = []

beforeAll(async () => {
  sandbox = await startTestSandbox({ log: (line) => log.push(line) })
})
afterAll(async () => {
  await sandbox.close()
})

async function until(test: () => boolean, ms: number) {
  const end = Date.now() + ms
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

it('a process killed between journal and answer: the same command again finishes it with the same id, one run', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-crash-'))
  const csv = join(home, 'rows.csv')
  writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\n')
  const args = ['run', csv, '--template', 'row-echo', '--base-url', sandbox.url, '--json']
  const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token }

  // The service holds the submission; the process is killed while it waits for the answer.
  sandbox.injectFault({ method: 'POST', path: paths.runRows('row-echo'), holdMs: 2500 })
  const child = spawnCliSource(args, env, 'ignore')
  await until(() => log.some((l) => l.startsWith('holding POST')), 60_000)
  child.kill('SIGKILL')
  await once(child, 'exit')

  const engine = testEngine(home, { tokenOverride: sandbox.token })
  const connection = await engine.connect({ baseUrl: sandbox.url })
  const journaled = engine.submissions.unanswered(connection.historyKey)
  await engine.close()
  expect(journaled).toHaveLength(1)
  expect(journaled[0]!.state).toBe('sent')

  // The user runs the same command again.
  const { code, stdout } = await runCliCaptured(args, {
    SKILL_RUNNER_HOME: home,
    SKILL_RUNNER_TOKEN: sandbox.token,
  })
  expect(code).toBe(0)
  const answer = JSON.parse(stdout)
  expect(answer.clientRequestId).toBe(journaled[0]!.clientRequestId)

  // Once the held request has been handled too, there is still one run.
  await new Promise((r) => setTimeout(r, 2800))
  const runs = await call<{ totalCount: number; items: { runId: string }[] }>(sandbox, paths.runs())
  expect(runs.body.totalCount).toBe(1)
  expect(runs.body.items[0]!.runId).toBe(answer.runId)
}, 90_000)
