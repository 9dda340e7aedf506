/**
 * The zip container of an .xlsx, read from its central directory (zip64 included): every size
 * and offset is checked against the file before anything is allocated, entries are found by
 * name whatever the slashes or letter case, and every part is inflated as a stream with a cap
 * on its output, so a zip bomb ends in a file error instead of gigabytes of memory.
 */
import { pipeline, Readable, type TransformOptions } from 'node:stream'
import type { ZlibOptions } from 'node:zlib'
import { MAX_ZIP_DIRECTORY_BYTES, MAX_ZIP_ENTRIES, RESAVE, WorkbookFileError } from '../../limits'
import { formatBytes } from '../../../../shared/format/bytes'
import type { ByteSource } from '../../byte-source'

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

/** Where the central directory is and how many entries it says it holds. */
interface Directory {
  count: number
  cdSize: number
  cdOffset: number
}

/** The end of central directory record (and the zip64 one it points to, when sizes overflow). */
async function findDirectory(source: ByteSource): Promise<Directory> {
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
  const directory = {
    count: tail.readUInt16LE(at + 10),
    cdSize: tail.readUInt32LE(at + 12),
    cdOffset: tail.readUInt32LE(at + 16),
  }
  const { count, cdSize, cdOffset } = directory
  if (count !== 0xffff && cdSize !== 0xffffffff && cdOffset !== 0xffffffff) return directory
  // zip64: the locator sits just before the classic end record.
  const locatorAt = size - tailLength + at - 20
  const locator = locatorAt >= 0 ? await source.readAt(locatorAt, 20) : Buffer.alloc(0)
  if (locator.length !== 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR) return directory
  const recordAt = readSize(locator, 8)
  if (recordAt + 56 > size) throw damaged('its zip64 directory points past the end of the file')
  const record = await source.readAt(recordAt, 56)
  if (record.readUInt32LE(0) !== ZIP64_EOCD) throw damaged('its zip64 directory is broken')
  return {
    count: readSize(record, 32),
    cdSize: readSize(record, 40),
    cdOffset: readSize(record, 48),
  }
}

/**
 * The real sizes and offset of an entry whose 32-bit fields overflowed: in its zip64 extra field,
 * in this order, for those that did.
 */
function zip64Values(cd: Buffer, from: number, to: number, entry: ZipEntry): void {
  let e = from
  while (e + 4 <= to) {
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
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = next()
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next()
      if (entry.localOffset === 0xffffffff) entry.localOffset = next()
      return
    }
    e += 4 + length
  }
}

/** The entries of the central directory, each checked against the size of the file. */
function readEntries(cd: Buffer, count: number, size: number): ZipEntry[] {
  const entries: ZipEntry[] = []
  let p = 0
  for (let n = 0; n < count; n += 1) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL)
      throw damaged('its zip directory is broken')
    const flags = cd.readUInt16LE(p + 8)
    const nameLength = cd.readUInt16LE(p + 28)
    const extraLength = cd.readUInt16LE(p + 30)
    const end = p + 46 + nameLength + extraLength + cd.readUInt16LE(p + 32)
    if (end > cd.length) throw damaged('its zip directory is broken')
    const entry: ZipEntry = {
      name: cd
        .toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength)
        .replace(/\\/g, '/')
        .replace(/^\/+/, ''),
      method: cd.readUInt16LE(p + 10),
      flags,
      compressedSize: cd.readUInt32LE(p + 20),
      uncompressedSize: cd.readUInt32LE(p + 24),
      localOffset: cd.readUInt32LE(p + 42),
    }
    if (
      entry.uncompressedSize === 0xffffffff ||
      entry.compressedSize === 0xffffffff ||
      entry.localOffset === 0xffffffff
    )
      zip64Values(cd, p + 46 + nameLength, p + 46 + nameLength + extraLength, entry)
    if (entry.localOffset + 30 > size || entry.compressedSize > size - entry.localOffset - 30)
      throw damaged(
        `the zip entry “${entry.name.slice(0, 80)}” claims more bytes than the file holds`,
      )
    entries.push(entry)
    p = end
  }
  return entries
}

export async function openZip(source: ByteSource): Promise<Zip> {
  const size = source.size
  const { count, cdSize, cdOffset } = await findDirectory(source)
  if (cdOffset + cdSize > size)
    throw damaged('its zip directory points past the end of the file (was it cut short?)')
  if (cdSize > MAX_ZIP_DIRECTORY_BYTES || count > MAX_ZIP_ENTRIES)
    throw new WorkbookFileError(
      `The file holds more parts than a workbook can (${count.toLocaleString('en-US')} zip entries, ${formatBytes(cdSize)} of directory). ${RESAVE}`,
    )
  const entries = readEntries(await source.readAt(cdOffset, cdSize), count, size)
  const byKey = new Map<string, ZipEntry>()
  for (const entry of entries) {
    const k = key(entry.name)
    if (!byKey.has(k)) byKey.set(k, entry)
  }
  const inflate = (entry: ZipEntry, maxBytes: number) => inflateEntry(source, entry, maxBytes)
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

/** Where an entry's packed bytes start, from its local header. */
async function dataStart(source: ByteSource, entry: ZipEntry): Promise<number> {
  const header = await source.readAt(entry.localOffset, 30)
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL)
    throw damaged(`the zip entry “${entry.name}” is broken`)
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
  if (start + entry.compressedSize > source.size)
    throw damaged(`the zip entry “${entry.name}” runs past the end of the file`)
  return start
}

async function* inflateEntry(
  source: ByteSource,
  entry: ZipEntry,
  maxBytes: number,
): AsyncGenerator<Buffer> {
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
  const start = await dataStart(source, entry)
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
  // Up to 2 MB inflated ahead: the inflating (on libuv's threads) goes on while the text
  // already out is scanned, instead of waiting for each chunk to be asked for. In chunks of
  // 256 KB: zlib inflates a sheet in a third less time than in 64 KB ones, each chunk being a
  // round trip to a libuv thread and back.
  // (zlib's streams take a Transform's options too, which its option type leaves out).
  const options: ZlibOptions & TransformOptions = {
    chunkSize: 256 * 1024,
    readableHighWaterMark: 2 * 1024 * 1024,
  }
  // node:zlib loads with the first xlsx part inflated, never for a csv.
  const inflater = process.getBuiltinModule('node:zlib').createInflateRaw(options)
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
