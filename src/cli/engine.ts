/**
 * The engine of the command line (and of browser mode started from it): data under
 * SKILL_RUNNER_HOME, tokens from SKILL_RUNNER_TOKEN or the OS keychain, the built-in Sandbox
 * started in this process when no other process serves it.
 */
import { join } from 'node:path'
import { createEngine, type Engine } from '../core/engine'
import { openDataFolder, resolveHome } from '../core/storage/home'
import { chooseSecretStore, loadKeyringStore } from '../core/secrets'
import { startSandbox } from '../sandbox'

export async function makeEngine(env: NodeJS.ProcessEnv): Promise<Engine> {
  const home = resolveHome(env)
  await openDataFolder(home)
  const tokenOverride = env.SKILL_RUNNER_TOKEN?.trim() || undefined
  const chosen = await chooseSecretStore({
    keychain: () => loadKeyringStore(),
    tokenFromEnvironment: Boolean(tokenOverride),
  })
  return createEngine({
    home,
    secretStore: chosen.store,
    secretStoreView: chosen.view,
    tokenOverride,
    startBuiltInSandbox: async ({ dataDir }) => {
      const sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        dbPath: join(dataDir, 'sandbox.db'),
      })
      return {
        url: sandbox.url,
        token: sandbox.demoToken ?? sandbox.tokens[0] ?? '',
        close: () => sandbox.close(),
      }
    },
  })
}
