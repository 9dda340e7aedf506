/**
 * The zip container of an .xlsx, read from its central directory (zip64 included): every size
 * and offset is checked against the file before anything is allocated, entries are found by
 * name whatever the slashes or letter case, and every part is inflated as a stream with a cap
 * on its output, so a zip bomb ends in a file error instead of gigabytes of memory.
 */
import { pipeline, Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createInflateRaw } from 'node:zlib'
import {
  formatBytes,
  MAX_ZIP_DIRECTORY_BYTES,
  MAX_ZIP_ENTRIES,
  RESAVE,
  WorkbookFileError,
} from './limits'
import type { ByteSource } from './source'

export interface ZipEntry {
  /** The name as stored (backslashes turned into slashes, no leading slash). */
  name: string
  method: number
  flags: number
  compressedSize: number
  uncompressedSize: number
  localOffset: number
}

export interface Zip {
  entries: ZipEntry[]
  /** The entry of a part name, whatever its slashes and letter case. */
  find(name: string): ZipEntry | undefined
  /** A part's unpacked bytes as a stream of chunks; more than `maxBytes` is a file error. */
  inflate(entry: ZipEntry, maxBytes: number): AsyncGenerator<Buffer>
  /** A whole part, unpacked (at most `maxBytes`). */
  bytes(entry: ZipEntry, maxBytes: number): Promise<Buffer>
}

const EOCD = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_EOCD = 0x06064b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

const damaged = (what: string) =>
  new WorkbookFileError(
    `The workbook could not be read because the file is damaged: ${what}. ${RESAVE}`,
  )

function key(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase()
}

/** A little-endian 64-bit size; above 2^53 it cannot be a real size and is refused. */
function readSize(buffer: Buffer, at: number): number {
  const value = buffer.readBigUInt64LE(at)
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw damaged('a size in its zip directory is impossible')
  return Number(value)
}

export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
}

export async function openZip(source: ByteSource): Promise<Zip> {
  const size = source.size
  const tailLength = Math.min(size, 22 + 65_535)
  const tail = await source.readAt(size - tailLength, tailLength)
  let at = -1
  for (let i = tail.length - 22; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i
      break
    }
  }
  if (at < 0)
    throw damaged('the end of its zip directory is missing (was it cut short while copying?)')
  let count = tail.readUInt16LE(at + 10)
  let cdSize = tail.readUInt32LE(at + 12)
  let cdOffset = tail.readUInt32LE(at + 16)
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // zip64: the locator sits just before the classic end record.
    const locatorAt = size - tailLength + at - 20
    const locator = locatorAt >= 0 ? await source.readAt(locatorAt, 20) : Buffer.alloc(0)
    if (locator.length === 20 && locator.readUInt32LE(0) === ZIP64_LOCATOR) {
      const recordAt = readSize(locator, 8)
      if (recordAt + 56 > size) throw damaged('its zip64 directory points past the end of the file')
      const record = await source.readAt(recordAt, 56)
      if (record.readUInt32LE(0) !== ZIP64_EOCD) throw damaged('its zip64 directory is broken')
      count = readSize(record, 32)
      cdSize = readSize(record, 40)
      cdOffset = readSize(record, 48)
    }
  }
  if (cdOffset + cdSize > size)
    throw damaged('its zip directory points past the end of the file (was it cut short?)')
  if (cdSize > MAX_ZIP_DIRECTORY_BYTES || count > MAX_ZIP_ENTRIES)
    throw new WorkbookFileError(
      `The file holds more parts than a workbook can (${count.toLocaleString('en-US')} zip entries, ${formatBytes(cdSize)} of directory). ${RESAVE}`,
    )
  const cd = await source.readAt(cdOffset, cdSize)
  const entries: ZipEntry[] = []
  const byKey = new Map<string, ZipEntry>()
  let p = 0
  for (let n = 0; n < count; n += 1) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL)
      throw damaged('its zip directory is broken')
    const flags = cd.readUInt16LE(p + 8)
    const method = cd.readUInt16LE(p + 10)
    let compressedSize = cd.readUInt32LE(p + 20)
    let uncompressedSize = cd.readUInt32LE(p + 24)
    const nameLength = cd.readUInt16LE(p + 28)
    const extraLength = cd.readUInt16LE(p + 30)
    const commentLength = cd.readUInt16LE(p + 32)
    let localOffset = cd.readUInt32LE(p + 42)
    const end = p + 46 + nameLength + extraLength + commentLength
    if (end > cd.length) throw damaged('its zip directory is broken')
    const name = cd
      .toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength)
      .replace(/\\/g, '/')
      .replace(/^\/+/, '')
    if (
      uncompressedSize === 0xffffffff ||
      compressedSize === 0xffffffff ||
      localOffset === 0xffffffff
    ) {
      // The zip64 extra field holds the real values, in this order, for those that overflowed.
      let e = p + 46 + nameLength
      const extraEnd = e + extraLength
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e)
        const length = cd.readUInt16LE(e + 2)
        if (id === 0x0001) {
          let q = e + 4
          const next = () => {
            if (q + 8 > e + 4 + length) throw damaged('its zip64 sizes are broken')
            const v = readSize(cd, q)
            q += 8
            return v
          }
          if (uncompressedSize === 0xffffffff) uncompressedSize = next()
          if (compressedSize === 0xffffffff) compressedSize = next()
          if (localOffset === 0xffffffff) localOffset = next()
          break
        }
        e += 4 + length
      }
    }
    if (localOffset + 30 > size || compressedSize > size - localOffset - 30)
      throw damaged(`the zip entry “${name.slice(0, 80)}” claims more bytes than the file holds`)
    const entry: ZipEntry = { name, method, flags, compressedSize, uncompressedSize, localOffset }
    entries.push(entry)
    const k = key(name)
    if (!byKey.has(k)) byKey.set(k, entry)
    p = end
  }

  const dataStart = async (entry: ZipEntry): Promise<number> => {
    const header = await source.readAt(entry.localOffset, 30)
    if (header.length < 30 || header.readUInt32LE(0) !== LOCAL)
      throw damaged(`the zip entry “${entry.name}” is broken`)
    const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
    if (start + entry.compressedSize > size)
      throw damaged(`the zip entry “${entry.name}” runs past the end of the file`)
    return start
  }

  async function* inflate(entry: ZipEntry, maxBytes: number): AsyncGenerator<Buffer> {
    if (entry.flags & 1)
      throw new WorkbookFileError(
        `The part “${entry.name}” is encrypted inside the file. Remove the password in the program that made it, save, and try again.`,
      )
    if (entry.method !== 0 && entry.method !== 8)
      throw new WorkbookFileError(
        `The part “${entry.name}” is packed with a compression method this app cannot read (method ${entry.method}). ${RESAVE}`,
      )
    const tooBig = () =>
      new WorkbookFileError(
        `The part “${entry.name}” unpacks to more than ${formatBytes(maxBytes)}, more than a workbook of this kind can hold (a damaged file, or one built to exhaust memory). ${RESAVE}`,
      )
    if (entry.uncompressedSize > maxBytes) throw tooBig()
    const start = await dataStart(entry)
    const raw = source.chunks(start, start + entry.compressedSize)
    let total = 0
    if (entry.method === 0) {
      for await (const chunk of raw) {
        total += chunk.length
        if (total > maxBytes) throw tooBig()
        yield chunk
      }
      return
    }
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 })
    const stream = pipeline(Readable.from(raw), inflater, () => {})
    try {
      for await (const chunk of stream) {
        total += (chunk as Buffer).length
        if (total > maxBytes) throw tooBig()
        yield chunk as Buffer
      }
    } catch (error) {
      if (error instanceof WorkbookFileError) throw error
      throw damaged(`the packed data of “${entry.name}” is broken`)
    } finally {
      stream.destroy()
    }
  }

  return {
    entries,
    find: (name) => byKey.get(key(name)),
    inflate,
    async bytes(entry, maxBytes) {
      const chunks: Buffer[] = []
      for await (const chunk of inflate(entry, maxBytes)) chunks.push(chunk)
      return Buffer.concat(chunks)
    },
  }
}

/** Which text encoding an XML part is in, from its first bytes (BOM, or UTF-16 without one). */
export function xmlEncoding(head: Uint8Array): {
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be'
  bom: number
} {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 }
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 }
  if (head[0] === 0x3c && head[1] === 0x00) return { encoding: 'utf-16le', bom: 0 }
  if (head[0] === 0x00 && head[1] === 0x3c) return { encoding: 'utf-16be', bom: 0 }
  return { encoding: 'utf-8', bom: 0 }
}

interface ChunkDecoder {
  write(bytes: Buffer): string
  end(): string
}

/**
 * UTF-8 through node's StringDecoder, several times faster than TextDecoder's streaming decode
 * (the sheet is most of the file). As TextDecoder does, it replaces broken sequences with
 * U+FFFD and drops a byte order mark that starts the text (one after the mark xmlEncoding took).
 */
function utf8Decoder(): ChunkDecoder {
  const decoder = new StringDecoder('utf8')
  let started = false
  const start = (text: string) => {
    if (started || !text) return text
    started = true
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
  return { write: (bytes) => start(decoder.write(bytes)), end: () => start(decoder.end()) }
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be'): ChunkDecoder {
  const decoder = new TextDecoder(encoding)
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() }
}

/** A part's unpacked bytes as text chunks, in whatever Unicode encoding it was written. */
export async function* textChunks(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let decoder: ChunkDecoder | null = null
  for await (const chunk of chunks) {
    let bytes = chunk
    if (!decoder) {
      const { encoding, bom } = xmlEncoding(chunk)
      decoder = encoding === 'utf-8' ? utf8Decoder() : utf16Decoder(encoding)
      bytes = chunk.subarray(bom)
    }
    const text = decoder.write(bytes)
    if (text) yield text
  }
  const rest = decoder?.end() ?? ''
  if (rest) yield rest
}

export function decodeText(bytes: Buffer): string {
  const { encoding, bom } = xmlEncoding(bytes)
  return new TextDecoder(encoding).decode(bytes.subarray(bom))
}
