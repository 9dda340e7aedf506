/**
 * Test helper: the real engine as the tests build it (tokens kept in memory), the Bridge service
 * of a browser page on top of it, and the built-in Sandbox started in this process. Every engine
 * test and benchmark sets these up the same way; only what differs is written at the call.
 */
import { join } from 'node:path'
import { createBridgeService, type BridgeService } from '../../src/core/bridge/service'
import type { BridgeEventName, BridgeEvents } from '../../src/shared/bridge'
import type { BridgeServiceOptions } from '../../src/core/bridge/service'
import {
  createEngine,
  type Connection,
  type Engine,
  type EngineOptions,
} from '../../src/core/engine'
import type { StartBuiltInSandbox } from '../../src/core/environments/builtin-sandbox'
import { MemorySecretStore } from '../../src/core/secrets'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox'
import { isTerminalStatus, type RunDetail } from '../../src/shared/contract'

/** A Bridge call as the desktop window makes it (over IPC), and as a browser page makes it. */
export const ipc = { transport: 'ipc' as const }
export const http = { transport: 'http' as const }

/** Who the app says it is in tests. */
export const TEST_APP = { name: 'test', version: '0', platform: 'linux' }

/** An engine on `home` whose tokens live in memory only. */
export function testEngine(
  home: string,
  options: Omit<EngineOptions, 'home' | 'secretStore'> = {},
): Engine {
  return createEngine({ home, secretStore: new MemorySecretStore(), ...options })
}

/** The Bridge service as a browser page reaches it (no desktop dialogs unless given). */
export function browserBridgeService(
  engine: Engine,
  options: Omit<BridgeServiceOptions, 'shell' | 'app'> = {},
): BridgeService {
  // Outputs go inside the engine's home unless a test says where: runs that end while a test
  // follows them are saved on their own (the "keep outputs" setting), never to the machine's
  // Downloads folder.
  const dialogs = { defaultOutputsFolder: () => join(engine.home, 'Downloads'), ...options.dialogs }
  return createBridgeService(engine, { shell: 'browser', app: TEST_APP, ...options, dialogs })
}

/** The Bridge service as the desktop window reaches it, its outputs folder `outputs` in the home. */
export function desktopBridgeService(engine: Engine, outputs = 'outputs'): BridgeService {
  return createBridgeService(engine, {
    shell: 'electron',
    app: TEST_APP,
    dialogs: { defaultOutputsFolder: () => join(engine.home, outputs) },
  })
}

/** An engine on `home` with `sandbox` added as the environment "Local", and connected to it. */
export async function engineOnLocal(
  home: string,
  sandbox: { url: string; token: string },
): Promise<{ engine: Engine; connection: Connection }> {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
  return { engine, connection: await engine.connect({ env: 'Local' }) }
}

/** Journals `rows` of row-echo, sends them, and returns the run's id once it has ended. */
export async function sendRowEcho(
  engine: Engine,
  connection: Connection,
  rows: Record<string, string | number>[],
  rowNumbers?: number[],
): Promise<string> {
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows,
    ...(rowNumbers ? { rowNumbers } : {}),
  })
  const { runId } = await engine.submissions.send(connection, entry)
  await runEnded(connection, runId)
  return runId
}

/** Every `event` the service pushes from now on, in order, in an array that keeps growing. */
export function pushedEvents<E extends BridgeEventName>(
  service: BridgeService,
  event: E,
): BridgeEvents[E][] {
  const seen: BridgeEvents[E][] = []
  service.subscribe((name, payload) => {
    if (name === event) seen.push(payload as BridgeEvents[E])
  })
  return seen
}

/** Starts the built-in Sandbox in this process, as the desktop app does, with its own database. */
export function inProcessBuiltInSandbox(
  options: SandboxOptions = {},
  started?: (sandbox: Sandbox) => void,
): StartBuiltInSandbox {
  return async ({ dataDir }) => {
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      dbPath: join(dataDir, 'sandbox.db'),
      ...options,
    })
    // A test may slow or break its next requests (injectFault), e.g. to stop work mid-way.
    started?.(sandbox)
    return { url: sandbox.url, token: sandbox.demoToken ?? '', close: () => sandbox.close() }
  }
}

/**
 * Reads a run's summary through the engine's connection until it has ended, and returns its
 * detail. The wait between looks grows from 30 to 400 ms: every look makes an in-process sandbox
 * write the whole detail, which for a run of thousands of rows slowed the run being waited for.
 */
export async function runEnded(connection: Connection, runId: string): Promise<RunDetail> {
  for (let wait = 30; ; wait = Math.min(400, Math.round(wait * 1.5))) {
    const summary = await connection.client.runSummary(runId)
    if (isTerminalStatus(summary.status)) return connection.client.run(runId)
    await new Promise((r) => setTimeout(r, wait))
  }
}
