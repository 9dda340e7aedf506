/**
 * The folder where the CLI and the desktop app keep their data: environments, schema cache,
 * history database and journal, and the built-in Sandbox's state. SKILL_RUNNER_HOME wins;
 * otherwise the platform's app-data folder. Both front doors use this one function, so they
 * share one history.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_FOLDER_NAME = 'skill-runner'

export function resolveHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.SKILL_RUNNER_HOME?.trim()) return env.SKILL_RUNNER_HOME.trim()
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME)
  }
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME)
  return join(env.XDG_CONFIG_HOME?.trim() || join(home, '.config'), APP_FOLDER_NAME)
}
