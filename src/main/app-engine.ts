/**
 * The desktop app's engine: data in the same folder as the CLI's (resolveHome), tokens in the
 * OS keychain when it answers (otherwise Electron's safeStorage, encrypted on disk), Electron's
 * net.fetch for the system proxy and certificates, and the built-in Sandbox started with the app.
 */
import { join } from 'node:path'
import { createEngine, type Engine } from '../core/engine'
import { BUILTIN_SANDBOX } from '../core/environments/environments'
import { openDataFolder, resolveHome } from '../core/storage/home'
import { loadKeyringStore } from '../core/secrets'
import type { BridgeServiceOptions } from '../core/bridge/service'
import { startSandbox } from '../sandbox'
import { createSafeStorageSecretStore, type SafeStorageLike } from './safe-storage-secret-store'
import { chooseSecretStore } from './secret-store'
import { defined } from '../shared/defined'

export interface AppEngineOptions {
  version: string
  fetch: typeof fetch
  safeStorage: SafeStorageLike
  log: (...parts: unknown[]) => void
  /** Asks where to save a file the app made (Electron's save dialog); null when cancelled. */
  chooseSavePath?: (suggestedName: string, title: string) => Promise<string | null>
  /** Opens a saved file with the system's app for it (shell.openPath). */
  openPath?: (path: string) => Promise<void>
  /** Shows a saved file or folder in the system's file manager (shell.showItemInFolder). */
  showItemInFolder?: (path: string) => void
  /** The system's folder picker (dialog.showOpenDialog); null when cancelled. */
  chooseFolder?: (title: string, current: string) => Promise<string | null>
  /** The platform's Downloads folder (app.getPath('downloads')). */
  downloadsFolder?: string
}

export async function createAppEngine(options: AppEngineOptions): Promise<{
  engine: Engine
  bridge: Omit<BridgeServiceOptions, 'shell'>
  close(): Promise<void>
}> {
  const home = resolveHome()
  await openDataFolder(home)
  const chosen = await chooseSecretStore({
    keychain: () => loadKeyringStore(),
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
  const bridge: Omit<BridgeServiceOptions, 'shell'> = {
    app: { name: 'Skill Runner', version: options.version, platform: process.platform },
    dialogs: {
      ...defined({
        chooseSavePath: options.chooseSavePath,
        openPath: options.openPath,
        showItemInFolder: options.showItemInFolder,
        chooseFolder: options.chooseFolder,
      }),
      ...(options.downloadsFolder
        ? { defaultOutputsFolder: () => join(options.downloadsFolder!, 'Skill Runner') }
        : {}),
    },
  }
  return { engine, bridge, close: () => engine.close() }
}
