import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCliCaptured, spawnCliSource } from '../helpers/cli'
import { paths } from '../../src/shared/contract'
import { testEngine } from '../helpers/engine'
import { hashFile } from '../../src/core/flows/spend/uploads'
import { UploadsTable } from '../../src/core/storage/tables/uploads'
import { openDb } from '../../src/core/storage/db'
import { call, startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox
const log: string[] = []

beforeAll(async () => {
  sandbox = await startTestSandbox({ log: (line) => log.push(line) })
})
afterAll(async () => {
  await sandbox.close()
})

it('a process killed between journal and answer: the same command again finishes it with the same id, one run', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-crash-'))
  const csv = join(home, 'rows.csv')
  writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\n')
  const args = ['run', csv, '--template', 'row-echo', '--yes', '--base-url', sandbox.url, '--json']
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
  await until(() => log.some((l) => l.startsWith('handled the held POST')), 60_000)
  const runs = await call<{ totalCount: number; items: { runId: string }[] }>(sandbox, paths.runs())
  expect(runs.body.totalCount).toBe(1)
  expect(runs.body.items[0]!.runId).toBe(answer.runId)
}, 90_000)

/** The upload this computer recorded as confirmed by the service for a file, and the journal. */
async function recordedUpload(home: string, file: string) {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  const connection = await engine.connect({ baseUrl: sandbox.url })
  const journal = engine.submissions.unanswered(connection.historyKey)
  await engine.close()
  const db = openDb(join(home, 'history.db'))
  try {
    return {
      record: new UploadsTable(db).find(connection.historyKey, await hashFile(file)),
      journal,
    }
  } finally {
    db.close()
  }
}

it('a run killed half-way through uploading a file cell: nothing is taken as uploaded, the same command uploads it again and runs once', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-crash-upload-'))
  const document = join(home, 'big.txt')
  writeFileSync(document, 'x'.repeat(24 * 1024 * 1024))
  const csv = join(home, 'docs.csv')
  writeFileSync(csv, 'Document,Title\nbig.txt,Big one\n')
  const args = [
    'run',
    csv,
    '--template',
    'document-digest',
    '--yes',
    '--base-url',
    sandbox.url,
    '--json',
  ]
  const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token }
  const runsBefore = (await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount

  // The service leaves the upload unread; the process is killed with its body half sent.
  log.length = 0
  sandbox.injectFault({ method: 'POST', path: paths.upload(), holdMs: 4000 })
  const child = spawnCliSource(args, env, 'ignore')
  await until(() => log.some((l) => l.startsWith(`holding POST ${paths.upload()}`)), 60_000)
  child.kill('SIGKILL')
  await once(child, 'exit')

  const killed = await recordedUpload(home, document)
  expect(killed.record).toBeNull()
  expect(killed.journal).toHaveLength(0)

  const { code, stdout, stderr } = await runCliCaptured(args, env)
  expect(code, stderr).toBe(0)
  const answer = JSON.parse(stdout)
  const after = await recordedUpload(home, document)
  expect(after.record).not.toBeNull()
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  const sent = engine.submissions.search({ search: answer.runId })
  await engine.close()
  expect(sent[0]!.rows[0]!.document).toEqual({ inputAssetId: after.record!.inputAssetId })
  const runs = await call<{ totalCount: number }>(sandbox, paths.runs())
  expect(runs.body.totalCount).toBe(runsBefore + 1)
}, 90_000)

it('an upload killed after the service stored it but before its answer arrived: the next upload sends it again, and only a confirmed asset is reused', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-crash-upload-'))
  const file = join(home, 'notes.txt')
  writeFileSync(file, 'notes to fingerprint\n')
  const args = ['upload', file, '--base-url', sandbox.url, '--json']
  const env = { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token }

  log.length = 0
  sandbox.injectFault({ method: 'POST', path: paths.upload(), holdAnswerMs: 4000 })
  const child = spawnCliSource(args, env, 'ignore')
  await until(() => log.some((l) => l.startsWith('holding the answer of POST')), 60_000)
  child.kill('SIGKILL')
  await once(child, 'exit')
  expect((await recordedUpload(home, file)).record).toBeNull()

  const again = await runCliCaptured(args, env)
  expect(again.code, again.stderr).toBe(0)
  expect(again.stderr).not.toMatch(/uploaded before/)
  const confirmed = JSON.parse(again.stdout).inputAssetId
  expect((await recordedUpload(home, file)).record?.inputAssetId).toBe(confirmed)

  const third = await runCliCaptured(args, env)
  expect(third.code, third.stderr).toBe(0)
  expect(third.stderr).toMatch(/uploaded before/)
  expect(JSON.parse(third.stdout).inputAssetId).toBe(confirmed)
}, 90_000)
