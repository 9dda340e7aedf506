// An artifact's accessUrl may stop working (the interface does not promise it lasts). The sandbox
// is started with urlTtlMs, so every address it gives is refused a second later: a download that
// starts from an old run detail must read the run again for fresh addresses and save everything,
// resuming a file that was cut before.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import type { RunDetail } from '../../src/shared/contract'
import { runEnded, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

const TTL_MS = 1000
let sandbox: TestSandbox
let engine: Engine
let connection: Connection
let home: string

beforeAll(async () => {
  sandbox = await startTestSandbox({ urlTtlMs: TTL_MS })
  home = mkdtempSync(join(tmpdir(), 'sr-expiring-'))
  engine = testEngine(home, { tokenOverride: sandbox.token })
  connection = await engine.connect({ baseUrl: sandbox.url })
})
afterAll(async () => {
  await engine.close()
  await sandbox.close()
})

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** Sends rows and waits for the run to end; answers its detail as read then. */
async function endedRun(templateId: string, rows: Record<string, unknown>[]): Promise<RunDetail> {
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId },
    rows,
  })
  const { runId } = await engine.submissions.send(connection, entry)
  await runEnded(connection, runId)
  return connection.client.run(runId)
}

/** Waits until every address in `detail` is past its end, as the sandbox wrote it. */
async function expired(detail: RunDetail): Promise<void> {
  const ends = detail.artifacts.map((a) => Number(new URL(a.accessUrl).searchParams.get('expires')))
  expect(ends.every((end) => end > 0)).toBe(true)
  await until(() => Date.now() > Math.max(...ends) + 10)
}

async function served(accessUrl: string): Promise<Response> {
  return fetch(accessUrl, { headers: { Authorization: `Bearer ${sandbox.token}` } })
}

describe('expired artifact addresses', () => {
  it('are refused by the sandbox, and every output is saved anyway from fresh ones', async () => {
    const stale = await endedRun('row-echo', [
      { message: 'one', sequence: 1 },
      { message: 'two', sequence: 2 },
      { message: 'three', sequence: 3 },
    ])
    const remote = stale.artifacts.filter((a) => !a.inlineText)
    expect(remote.length).toBeGreaterThanOrEqual(3)
    await expired(stale)
    expect((await served(remote[0]!.accessUrl)).status).toBe(403)

    const out = mkdtempSync(join(tmpdir(), 'sr-expiring-out-'))
    const result = await engine.downloads.run(connection, stale, out, {
      attempts: 1,
      listFiles: true,
    })
    expect(result.failed).toEqual([])
    expect(result.files).toHaveLength(stale.artifacts.length)
    const fresh = await connection.client.run(stale.run.runId)
    for (const file of result.files) {
      const artifact = fresh.artifacts.find((a) => a.artifactId === file.artifactId)!
      const bytes = Buffer.from(await (await served(artifact.accessUrl)).arrayBuffer())
      expect(sha(readFileSync(file.path))).toBe(sha(bytes))
    }
  })

  it('a file cut before its address expired resumes from a fresh address', async () => {
    const big = join(home, 'big.bin')
    writeFileSync(big, randomBytes(2 * 1024 * 1024))
    const { asset } = await engine.uploads.file(connection, big)
    const stale = await endedRun('document-digest', [
      { document: { inputAssetId: asset.inputAssetId }, title: 'Big file' },
    ])
    const file = stale.artifacts.find((a) => !a.inlineText && a.accessUrl)!
    const one = { ...stale, artifacts: [file] }
    sandbox.injectFault({
      method: 'GET',
      path: new URL(file.accessUrl).pathname,
      cutBodyAfterBytes: 300_000,
    })
    const out = mkdtempSync(join(tmpdir(), 'sr-expiring-cut-'))
    const cut = await engine.downloads.run(connection, one, out, { attempts: 1 })
    expect(cut.saved).toBe(0)

    await expired(one)
    const again = await engine.downloads.run(connection, one, out, {
      attempts: 1,
      listFiles: true,
    })
    expect(again.failed).toEqual([])
    expect(again.files[0]!.resumedFrom).toBe(300_000)
    expect(sha(readFileSync(again.files[0]!.path))).toBe(sha(readFileSync(big)))
  })

  it('an address refused again and again is told as it is, not asked for forever', async () => {
    const stale = await endedRun('row-echo', [{ message: 'alone', sequence: 1 }])
    const remote = stale.artifacts.find((a) => !a.inlineText)!
    sandbox.injectFault({
      method: 'GET',
      path: new URL(remote.accessUrl).pathname,
      status: 403,
      times: 10,
    })
    const out = mkdtempSync(join(tmpdir(), 'sr-expiring-refused-'))
    const result = await engine.downloads.run(connection, { ...stale, artifacts: [remote] }, out, {
      attempts: 1,
    })
    expect(result.saved).toBe(0)
    expect(result.failed).toHaveLength(1)
  })
})
