/**
 * Files that cross the Bridge: a path (the desktop app; refused over HTTP, where a page could name
 * any file on this computer) or a page's bytes, written to a private temporary folder first so
 * that every file goes through the same reading, hashing and streaming.
 */
import { mkdtemp, stat, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { BridgeError, type FileRef } from '../../shared/bridge'
import { safeFileName } from '../flows/downloads/downloads'
import type { ReadSheet } from '../flows/spend/set-aside'
import { parseInputWorkbook, type WorkerPool } from '../workbooks'
import { defined } from '../../shared/defined'

/** Over HTTP a page could name any file on this computer: only contents are accepted. */
export function refusePathsOverHttp(files: FileRef[], transport: 'ipc' | 'http') {
  if (transport !== 'ipc' && files.some((f) => f.kind === 'path')) {
    throw new BridgeError({
      code: 'forbidden',
      message: 'In a browser, files are sent by their content, not by a path on this computer.',
      nextStep: 'Drop the files onto the page again.',
    })
  }
}

export async function describeFile(file: FileRef, transport: 'ipc' | 'http') {
  if (file.kind === 'bytes') {
    return {
      name: file.name,
      sizeBytes: Buffer.byteLength(file.base64, 'base64'),
      source: 'bytes' as const,
    }
  }
  // A page in a browser cannot know real paths; refuse rather than read what it names.
  if (transport !== 'ipc') {
    throw new BridgeError({
      code: 'forbidden',
      message: 'In a browser, files are sent by their content, not by a path on this computer.',
      nextStep: 'Drop the file onto the page again.',
    })
  }
  if (!isAbsolute(file.path)) {
    throw new BridgeError({
      code: 'invalid-arguments',
      message: `“${file.name}” has no usable location on this computer.`,
      nextStep: 'Save the file to a folder first, then drop it again.',
    })
  }
  try {
    const info = await stat(file.path)
    if (!info.isFile()) throw new Error('not a file')
    return { name: file.name, sizeBytes: info.size, source: 'path' as const }
  } catch {
    throw new BridgeError({
      code: 'not-found',
      message: `Skill Runner cannot read “${file.name}”.`,
      nextStep: 'Check that the file still exists and that you may open it, then drop it again.',
    })
  }
}

/** The uploads a page made for a workbook's file cells, by cell text (the first of a repeat wins). */
export function fileAssetsOf(
  assets: readonly { path: string; inputAssetId: string }[] | undefined,
): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>
  for (const a of assets ?? []) if (!(a.path in out)) out[a.path] = a.inputAssetId
  return out
}

/**
 * How a verb reads a workbook it plans a send of: the files its cells name are looked for on this
 * computer, or, with `fileAssets` (a page's workbook names files on the page's computer), only
 * those uploads count; `pool` is the engine's kept worker, when the read may use it.
 */
export function sendReader(
  options: { fileAssets?: Record<string, string>; pool?: WorkerPool | undefined } = {},
): ReadSheet {
  const files = options.fileAssets ? { fileAssets: options.fileAssets } : { checkFiles: true }
  return (path, schema, more = {}) =>
    parseInputWorkbook({ path }, schema, { ...more, ...files, ...defined({ pool: options.pool }) })
}

/**
 * A dropped file as a path the engine can read: the desktop's own path, or a browser's bytes
 * written to a private temporary folder first (removed when the plan is gone).
 */
export async function materialise(
  home: string,
  file: FileRef,
): Promise<{ path: string; fileName: string; scratch?: string }> {
  if (file.kind === 'path') return { path: file.path, fileName: file.name }
  const scratch = await mkdtemp(join(home, 'tmp-plan-'))
  const path = join(scratch, safeFileName(file.name))
  await writeFile(path, Buffer.from(file.base64, 'base64'))
  return { path, fileName: file.name, scratch }
}
