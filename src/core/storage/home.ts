/**
 * The folder where the CLI and the desktop app keep their data: environments, schema cache,
 * history database and journal, and the built-in Sandbox's state. SKILL_RUNNER_HOME wins;
 * otherwise the platform's app-data folder. Both front doors use this one function, so they
 * share one history, and open it with openDataFolder, so a folder that cannot be made or written
 * is said in words (which folder, why) before the history is opened.
 */
import { constants } from 'node:fs'
import { access, mkdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { EngineError } from '../errors'
import { errorCode } from '../files/error-code'

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

/** Why a folder cannot be made or written, by the system's error code, in a user's words. */
const REASONS: Record<string, string> = {
  ENOTDIR: 'part of that path is a file, not a folder',
  EEXIST: 'it is a file, not a folder',
  EACCES: 'this account may not write there',
  EPERM: 'this account may not write there',
  EROFS: 'it is on a read-only drive',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'that place cannot hold a new folder',
  ENAMETOOLONG: 'the path is too long',
}

/**
 * The error to show when the data folder cannot be made or written: which folder, why, and the
 * action to choose another. An error without a system error code is a bug, and stays as it is.
 */
export function dataFolderError(folder: string, error: unknown): unknown {
  const code = errorCode(error)
  if (code === undefined) return error
  return notUsable(folder, REASONS[code] ?? `the system refused (${code})`, error)
}

function notUsable(folder: string, reason: string, cause?: unknown): EngineError {
  return new EngineError(
    'bad-input',
    `Skill Runner cannot keep its data in “${folder}”: ${reason}.`,
    'Choose another folder for its data, one this account can write to.',
    { action: 'choose-data-folder', cause },
  )
}

/**
 * Makes the data folder when it is missing and checks it can be written, before anything is
 * opened in it. Missing parents are made one level at a time: Node's recursive mkdir spins
 * forever where the file system refuses a folder under one that exists (/proc).
 */
export async function openDataFolder(folder: string): Promise<void> {
  const path = resolve(folder)
  try {
    for (const missing of await missingFolders(path)) {
      await mkdir(missing).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error
      })
    }
    await access(path, constants.W_OK)
  } catch (error) {
    throw error instanceof EngineError ? error : dataFolderError(path, error)
  }
}

/** The folders to make, outermost first, for `path` to exist; refuses a file on the way. */
async function missingFolders(path: string): Promise<string[]> {
  const missing: string[] = []
  for (let at = path; ; at = dirname(at)) {
    // ENOTDIR: a file further up, found and named on a later turn.
    const info = await stat(at).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return null
      throw error
    })
    if (info?.isDirectory()) return missing
    if (info) {
      throw notUsable(path, at === path ? REASONS.EEXIST! : `“${at}” is a file, not a folder`)
    }
    missing.unshift(at)
    if (dirname(at) === at) return missing
  }
}
