/** Files the app writes for a moment (a workbook whose bytes go to a page), then removes. */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { safeFileName } from './safe-names'

/** Reads a file the app wrote into a temporary folder, then removes it. */
export async function bytesOfTemporary(
  home: string,
  name: string,
  write: (path: string) => Promise<void>,
): Promise<Buffer> {
  await mkdir(join(home, 'tmp'), { recursive: true })
  const folder = await mkdtemp(join(home, 'tmp', 'file-'))
  try {
    const path = join(folder, safeFileName(name, 'file.xlsx'))
    await write(path)
    return await readFile(path)
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
