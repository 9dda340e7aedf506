/** Folders the app writes into: paths kept inside them, and folders made when missing. */
import { mkdir, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { EngineError } from '../errors'
import { errorCode } from './error-code'

/** Where a sheet's checked rows wait between their check and their last part (flows/spend/plan-rows.ts). */
export function spillFolder(home: string): string {
  return join(home, 'spill')
}

/** `parts` joined under `root`, refusing anything that would land outside it. */
export function insideFolder(root: string, ...parts: string[]): string {
  const base = resolve(root)
  const path = resolve(base, ...parts)
  const rel = relative(base, path)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new EngineError(
      'internal',
      `Refused to write “${parts.join('/')}” because it would land outside ${base}.`,
      'This is a bug in how the file was named; please report it.',
    )
  }
  return path
}

/** Whether `path` lies inside `folder` (the folder itself does not count). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), resolve(path))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/**
 * Makes a folder and its missing parents one level at a time, with a clear message when that
 * cannot be done. (Node's recursive mkdir can spin forever on some file systems, e.g. /proc.)
 */
export async function ensureFolder(folder: string): Promise<void> {
  const missing: string[] = []
  let at = resolve(folder)
  for (;;) {
    const info = await stat(at).catch(() => null)
    if (info) {
      if (!info.isDirectory())
        throw new EngineError(
          'bad-input',
          `“${at}” is a file, not a folder.`,
          'Choose a folder to save into.',
        )
      break
    }
    missing.unshift(at)
    const parent = dirname(at)
    if (parent === at) break
    at = parent
  }
  for (const path of missing) {
    try {
      await mkdir(path)
    } catch (error) {
      if (errorCode(error) === 'EEXIST') continue
      throw new EngineError(
        'bad-input',
        `The folder “${path}” cannot be created (${errorCode(error) ?? String(error)}).`,
        'Choose a folder you may write to.',
      )
    }
  }
}

/** Whether anything is at `path` (a file or a folder). */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}
