// Cancel before anything is sent, through the Bridge on the real engine and the sandbox over
// HTTP: the sandbox holds the request for ten minutes, so only an aborted request lets the verb
// answer within the test. The caller is told it was stopped and nothing was charged; a stopped
// upload is not counted as uploaded (the same file uploads afresh, not "already on the service").
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import { BridgeError } from '../../src/shared/bridge'
import { paths } from '../../src/shared/contract'
import { browserBridgeService, http, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox
let engine: Engine
let service: BridgeService
/** The sandbox's log: it says when it starts holding a request. */
const log: string[] = []

beforeAll(async () => {
  sandbox = await startTestSandbox({ log: (line) => log.push(line) })
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-cancel-work-')), {
    tokenOverride: sandbox.token,
  })
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
  service = browserBridgeService(engine)
})
afterAll(async () => {
  service?.dispose()
  await engine?.close()
  await sandbox?.close()
})

const HELD_MS = 600_000
const bytes = (name: string, text: string) => ({
  kind: 'bytes' as const,
  name,
  base64: Buffer.from(text).toString('base64'),
})

/** Once the sandbox holds the request (it is on the wire, unanswered), the work is cancelled. */
async function cancelOnceHeld(workId: string, method: string, path: string) {
  const held = `holding ${method} ${path}`
  await until(() => log.some((line) => line.startsWith(held)))
  await service.handlers.cancelWork({ workId }, http)
}

describe('cancel what has not started (Bridge)', () => {
  it('abandons working out the cost: the request is aborted and the caller told so', async () => {
    sandbox.injectFault({
      method: 'GET',
      path: paths.templateSchema('row-echo'),
      holdMs: HELD_MS,
    })
    const workId = 'plan-0001-cancel'
    const planning = service.handlers.planSubmission(
      {
        environment: 'Local',
        file: bytes('rows.csv', 'Message\nhello'),
        target: { kind: 'template', templateId: 'row-echo' },
        workId,
      },
      http,
    )
    await cancelOnceHeld(workId, 'GET', paths.templateSchema('row-echo'))
    const error = await planning.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BridgeError)
    expect((error as BridgeError).category).toBe('cancelled')
    expect((error as BridgeError).message).toMatch(/Nothing was sent and nothing was charged/)
  })

  it('aborts an upload mid-transfer; the file is not counted as uploaded', async () => {
    sandbox.injectFault({ method: 'POST', path: paths.upload(), holdMs: HELD_MS })
    const file = bytes('photo.txt', 'x'.repeat(64 * 1024))
    const workId = 'upload-0001-cancel'
    const uploading = service.handlers.uploadFiles(
      { environment: 'Local', files: [file], workId },
      http,
    )
    await cancelOnceHeld(workId, 'POST', paths.upload())
    const error = await uploading.catch((e: unknown) => e)
    expect((error as BridgeError).category).toBe('cancelled')
    // Uploaded again, it is sent afresh: nothing of the stopped upload was kept.
    const again = await service.handlers.uploadFiles({ environment: 'Local', files: [file] }, http)
    expect(again.assets).toEqual([expect.objectContaining({ name: 'photo.txt', reused: false })])
  })
})
