/**
 * Bytes of uploaded input assets and of file artifacts. They live in a folder next to the
 * database file (`<db>.files`), or in a temporary folder removed on close when the database is
 * in memory. Keys are ids the sandbox made itself, never names from a request.
 */
import { createReadStream, type ReadStream } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}$/

export class BlobStore {
  private constructor(
    readonly dir: string,
    private readonly temporary: boolean,
  ) {}

  static async open(dbPath: string): Promise<BlobStore> {
    if (dbPath === ':memory:' || dbPath === '') {
      const dir = await mkdtemp(join(tmpdir(), 'skill-runner-sandbox-'))
      return new BlobStore(dir, true)
    }
    const dir = `${resolve(dbPath)}.files`
    await mkdir(dir, { recursive: true })
    return new BlobStore(dir, false)
  }

  pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe blob key: ${key}`)
    return join(this.dir, key)
  }

  /** Writes atomically: a half-written blob never appears under its key. */
  async write(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key)
    const partial = `${target}.partial`
    await writeFile(partial, bytes)
    await rename(partial, target)
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(key))).size
    } catch {
      return undefined
    }
  }

  /** A stream of bytes `start..end` (inclusive), as HTTP ranges count them. */
  read(key: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.pathOf(key), range)
  }

  async close(): Promise<void> {
    if (this.temporary) await rm(this.dir, { recursive: true, force: true })
  }
}
