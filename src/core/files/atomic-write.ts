/**
 * Writes that never leave a half-written file under its final name: the bytes go to a temporary
 * file beside it, which is renamed once complete (a rename within a folder is atomic).
 */
import { copyFile, rename, writeFile } from 'node:fs/promises'

/** Writes `data` to `path` through `temp` (by default `<path>.partial`). */
export async function writeFileAtomically(
  path: string,
  data: Uint8Array | string,
  temp = `${path}.partial`,
): Promise<void> {
  await writeFile(temp, data)
  await rename(temp, path)
}

/** Copies `source` to `target` through `<target>.partial`. */
export async function copyFileAtomically(source: string, target: string): Promise<void> {
  const temp = `${target}.partial`
  await copyFile(source, temp)
  await rename(temp, target)
}
