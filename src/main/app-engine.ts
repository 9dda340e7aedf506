/**
 * The desktop app's engine: data in the same folder as the CLI's (resolveHome), tokens in the
 * OS keychain when it answers (otherwise Electron's safeStorage, encrypted on disk), Electron's
 * net.fetch for the system proxy and certificates, and the built-in Sandbox started with the app.
 */
import { join } from 'node:path'
import { createEngine, type Engine } from '../core/engine'
import { BUILTIN_SANDBOX } from '../core/environments'
import { resolveHome } from '../core/home'
import { loadKeytarStore } from '../core/secrets'
import type { ShellEngine } from '../core/bridge-handlers'
import { createShellEngine } from '../core/shell-engine'
import { startSandbox } from '../sandbox'
import { createSafeStorageSecretStore, type SafeStorageLike } from './safe-storage-secret-store'
import { chooseSecretStore } from './secret-store'

export interface AppEngineOptions {
  version: string
  fetch: typeof fetch
  safeStorage: SafeStorageLike
  log: (...parts: unknown[]) => void
  /** Asks where to save a run's downloads (Electron's folder dialog); null when cancelled. */
  chooseDownloadFolder?: (runId: string) => Promise<string | null>
}

export async function createAppEngine(
  options: AppEngineOptions,
): Promise<{ engine: Engine; shell: ShellEngine; close(): Promise<void> }> {
  const home = resolveHome()
  const chosen = await chooseSecretStore({
    keychain: () => loadKeytarStore(),
    fallback: () =>
      createSafeStorageSecretStore({
        safeStorage: options.safeStorage,
        file: join(home, 'tokens.enc.json'),
        platform: process.platform,
      }),
    log: options.log,
  })
  const engine = createEngine({
    home,
    fetch: options.fetch,
    secretStore: chosen.store,
    secretStoreView: chosen.view,
    startBuiltInSandbox: async ({ dataDir }) => {
      const sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        dbPath: join(dataDir, 'sandbox.db'),
      })
      return { url: sandbox.url, token: sandbox.demoToken ?? '', close: () => sandbox.close() }
    },
    log: (line) => options.log(line),
  })
  // The built-in Sandbox starts with the app, so a new user can try everything at once.
  await engine
    .connect({ env: BUILTIN_SANDBOX })
    .catch((error: unknown) => options.log('the built-in Sandbox did not start:', error))
  const shell = createShellEngine(
    engine,
    {
      name: 'Skill Runner',
      version: options.version,
      platform: process.platform,
    },
    options.chooseDownloadFolder ? { chooseDownloadFolder: options.chooseDownloadFolder } : {},
  )
  return { engine, shell, close: () => engine.close() }
}
