/**
 * Test helper for a file of Bridge verb tests: the verbs as the desktop window calls them, over an
 * engine whose environment "Local" is a test sandbox. Every such file wants the same start (a
 * temporary home, the engine connected to Local, the Bridge service on it) and the same end, so
 * only what each test does is written in the file.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Connection, Engine } from '../../src/core/engine'
import { desktopBridgeService, engineOnLocal, testEngine } from './engine'
import { useTestSandbox, type TestSandbox } from './sandbox'
import { standIn } from './stand-in'

export interface LocalBridge {
  sandbox: TestSandbox
  engine: Engine
  connection: Connection
  bridge: BridgeService
  /** The engine's temporary home. */
  home(): string
  /** Closes the service and the engine and opens both again on the same home, as a restart does. */
  reopen(): Promise<void>
}

/**
 * Starts the sandbox, the engine and its Bridge service before the tests around the call and
 * closes them after; the handles returned stand for them from then on (reopen() included).
 * `outputs` is the default outputs folder, inside the home.
 */
export function useLocalBridge(homePrefix: string, outputs?: string): LocalBridge {
  const sandbox = useTestSandbox()
  let started:
    { home: string; engine: Engine; connection: Connection; bridge: BridgeService } | undefined
  const withBridge = (home: string, opened: { engine: Engine; connection: Connection }) => {
    started = { home, ...opened, bridge: desktopBridgeService(opened.engine, outputs) }
  }
  const close = async () => {
    started?.bridge.dispose()
    await started?.engine.close()
  }
  beforeAll(async () => {
    const home = mkdtempSync(join(tmpdir(), homePrefix))
    withBridge(home, await engineOnLocal(home, sandbox))
  })
  afterAll(close)
  const live = () => {
    if (!started) throw new Error('the engine is used before it started (beforeAll)')
    return started
  }
  return {
    sandbox,
    engine: standIn(() => live().engine),
    connection: standIn(() => live().connection),
    bridge: standIn(() => live().bridge),
    home: () => live().home,
    async reopen() {
      const { home } = live()
      await close()
      // Local is in the home's history already: the new engine only connects to it.
      const engine = testEngine(home, { tokenOverride: sandbox.token })
      withBridge(home, { engine, connection: await engine.connect({ env: 'Local' }) })
    },
  }
}
