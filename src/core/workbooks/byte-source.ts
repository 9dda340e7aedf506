/**
 * The bytes of a workbook, from a file or from memory, behind one small interface. A file is
 * opened once, without waiting (a FIFO or a device named .csv never blocks the reader), and
 * only when it is a regular file; every read is checked against the size found then.
 */
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { WorkbookFileError } from './limits'

/** Whether a file starts as a zip does (an xlsx is one), known without loading the zip reader. */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
}

export type WorkbookSource = { path: string } | { bytes: Uint8Array; filename: string }

export interface ByteSource {
  readonly size: number
  /** `length` bytes from `position`; fewer only at the end of the file. */
  readAt(position: number, length: number): Promise<Buffer>
  /** The bytes from `start` (inclusive) to `end` (exclusive), in chunks. */
  chunks(start: number, end: number, chunkBytes?: number): AsyncGenerator<Buffer>
  /**
   * The same bytes, read into one buffer again and again: each piece holds only until the next
   * is asked for. For a reader done with a piece before it asks for the next (a text decoder),
   * so that reading a big file leaves no trail of buffers behind it for the collector.
   */
  pieces(start: number, end: number, chunkBytes?: number): AsyncGenerator<Buffer>
  close(): Promise<void>
}

export function sourceName(source: WorkbookSource): string {
  return 'path' in source ? source.path : source.filename
}

export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path
}

function kindOf(stats: {
  isDirectory(): boolean
  isFIFO(): boolean
  isSocket(): boolean
  isCharacterDevice(): boolean
  isBlockDevice(): boolean
}): string {
  if (stats.isDirectory()) return 'a folder'
  if (stats.isFIFO()) return 'a named pipe'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

/** Opens a workbook's bytes; a path that is not a regular file is refused at once. */
export async function openByteSource(source: WorkbookSource): Promise<ByteSource> {
  if ('bytes' in source) return memorySource(source.bytes)
  let handle: FileHandle
  try {
    // O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
    handle = await open(source.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as { code?: string }).code
    const name = baseName(source.path)
    if (code === 'ENOENT')
      throw new WorkbookFileError(`The file “${name}” was not found. Check its name and folder.`)
    if (code === 'EISDIR')
      throw new WorkbookFileError(`“${name}” is a folder, not a workbook. Choose the file itself.`)
    throw new WorkbookFileError(
      `The file “${name}” cannot be opened. Check that it exists and that you may read it.`,
    )
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) {
      throw new WorkbookFileError(
        `“${baseName(source.path)}” is ${kindOf(stats)}, not a workbook file. Save the workbook as a file (.xlsx or .csv) and choose that.`,
      )
    }
    return fileSource(handle, stats.size)
  } catch (error) {
    await handle.close()
    throw error
  }
}

function memorySource(bytes: Uint8Array): ByteSource {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // Pieces of bytes in memory are views of them: nothing is read or kept.
  const source: Omit<ByteSource, 'pieces'> = {
    size: buffer.length,
    readAt: async (position, length) =>
      buffer.subarray(clamp(position, buffer.length), clamp(position + length, buffer.length)),
    async *chunks(start, end, chunkBytes = 1024 * 1024) {
      const stop = clamp(end, buffer.length)
      for (let at = clamp(start, stop); at < stop; at += chunkBytes)
        yield buffer.subarray(at, Math.min(stop, at + chunkBytes))
    },
    close: async () => {},
  }
  return { ...source, pieces: source.chunks }
}

function clamp(n: number, max: number) {
  return Math.max(0, Math.min(n, max))
}

function fileSource(handle: FileHandle, size: number): ByteSource {
  const readAt = async (position: number, length: number, into?: Buffer) => {
    const wanted = clamp(position + length, size) - clamp(position, size)
    if (wanted <= 0) return Buffer.alloc(0)
    const buffer = into ?? Buffer.allocUnsafe(wanted)
    let filled = 0
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, position + filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return buffer.subarray(0, filled)
  }
  // `into`: the one buffer every piece is read into, or a new buffer for each.
  async function* inPieces(start: number, end: number, chunkBytes: number, into?: Buffer) {
    const stop = clamp(end, size)
    for (let at = clamp(start, stop); at < stop;) {
      const piece = await readAt(at, Math.min(chunkBytes, stop - at), into)
      if (piece.length === 0) return
      at += piece.length
      yield piece
    }
  }
  return {
    size,
    readAt,
    chunks: (start, end, chunkBytes = 256 * 1024) => inPieces(start, end, chunkBytes),
    pieces(start, end, chunkBytes = 256 * 1024) {
      const wanted = clamp(end, size) - clamp(start, size)
      const into = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, wanted)))
      return inPieces(start, end, into.length, into)
    },
    close: () => handle.close(),
  }
}
