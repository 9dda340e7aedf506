/**
 * Test helper: a browser page's Bridge service on the real engine, signed in to a test sandbox of
 * its own over real HTTP, for the tests of one file. Made before the file's tests and closed after
 * them; `use` receives the parts once they are up.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import { browserBridgeService, testEngine } from './engine'
import { startTestSandbox, type TestSandbox } from './sandbox'

export interface BridgeOnSandbox {
  sandbox: TestSandbox
  engine: Engine
  service: BridgeService
}

export function useBridgeOnSandbox(homePrefix: string, use: (parts: BridgeOnSandbox) => void) {
  let parts: BridgeOnSandbox | undefined
  beforeAll(async () => {
    const sandbox = await startTestSandbox()
    const engine = testEngine(mkdtempSync(join(tmpdir(), homePrefix)), {
      tokenOverride: sandbox.token,
      api: { maxAttempts: 2, backoffMs: 5, maxBackoffMs: 10 },
    })
    await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
    parts = { sandbox, engine, service: browserBridgeService(engine) }
    use(parts)
  })
  afterAll(async () => {
    parts?.service.dispose()
    await parts?.engine.close()
    await parts?.sandbox.close()
  })
}
