/**
 * A small zip written part by part: each part's text is packed (deflated, on libuv's threads)
 * as it comes, so only packed bytes are kept, and the file is written whole at the end. For
 * workbooks this app makes in a worker while it reads (the rows set aside), where loading and
 * warming exceljs would cost more than the writing itself.
 */
import { writeFile } from 'node:fs/promises'
import type { DeflateRaw } from 'node:zlib'

/** Text gathered before it is handed to the packer (fewer, larger pieces of work for zlib). */
const BATCH_CHARS = 64 * 1024

function crcTable(): Int32Array {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n += 1) {
    let c = n
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
}

/** One part of the zip: its text packed as it comes, with its CRC-32 and size. */
export class ZipPart {
  private crc = -1
  private size = 0
  private pending = ''
  private readonly packed: Buffer[] = []
  // node:zlib loads with the first zip written, never for a csv check.
  private readonly deflate: DeflateRaw = process.getBuiltinModule('node:zlib').createDeflateRaw()
  private readonly ended: Promise<void>

  constructor(
    readonly name: string,
    private readonly table: Int32Array,
  ) {
    this.deflate.on('data', (chunk: Buffer) => this.packed.push(chunk))
    this.ended = new Promise((resolve, reject) => {
      this.deflate.once('end', resolve)
      this.deflate.once('error', reject)
    })
  }

  write(text: string): void {
    this.pending += text
    if (this.pending.length >= BATCH_CHARS) this.flush()
  }

  private flush(): void {
    if (!this.pending) return
    const bytes = Buffer.from(this.pending, 'utf8')
    this.pending = ''
    let crc = this.crc
    for (let i = 0; i < bytes.length; i += 1)
      crc = this.table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
    this.crc = crc
    this.size += bytes.length
    this.deflate.write(bytes)
  }

  discard(): void {
    this.deflate.destroy()
  }

  /** The part's packed bytes, CRC-32 and unpacked size, once all its text is packed. */
  async end(): Promise<{ packed: Buffer; crc: number; size: number }> {
    this.flush()
    this.deflate.end()
    await this.ended
    return { packed: Buffer.concat(this.packed), crc: ~this.crc >>> 0, size: this.size }
  }
}

/** The parts of a zip, in the order they are added; written to a file by `writeZip`. */
export class ZipParts {
  private readonly table = crcTable()
  readonly parts: ZipPart[] = []

  add(name: string, text?: string): ZipPart {
    const part = new ZipPart(name, this.table)
    this.parts.push(part)
    if (text !== undefined) part.write(text)
    return part
  }

  /** Nothing is written after all: the packers stop. */
  discard(): void {
    for (const part of this.parts) part.discard()
  }

  /** Writes the zip (deflated parts, then the central directory) to `path`. */
  async writeTo(path: string): Promise<void> {
    const pieces: Buffer[] = []
    const central: Buffer[] = []
    let offset = 0
    for (const part of this.parts) {
      const { packed, crc, size } = await part.end()
      const name = Buffer.from(part.name, 'utf8')
      const local = Buffer.alloc(30)
      local.writeUInt32LE(0x04034b50, 0)
      describePart(local, 4, crc, packed.length, size, name.length)
      const entry = Buffer.alloc(46)
      entry.writeUInt32LE(0x02014b50, 0)
      entry.writeUInt16LE(20, 4)
      describePart(entry, 6, crc, packed.length, size, name.length)
      entry.writeUInt32LE(offset, 42)
      pieces.push(local, name, packed)
      central.push(entry, name)
      offset += local.length + name.length + packed.length
    }
    const directory = Buffer.concat(central)
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(this.parts.length, 8)
    end.writeUInt16LE(this.parts.length, 10)
    end.writeUInt32LE(directory.length, 12)
    end.writeUInt32LE(offset, 16)
    await writeFile(path, Buffer.concat([...pieces, directory, end]))
  }
}

/**
 * What a part's local header and its central directory entry both say, in the same order from
 * "version needed" on (at 4 in the local header, at 6 in the entry): zip 2.0, UTF-8 name,
 * deflated, dated 1980-01-01, its CRC, sizes and name's length.
 */
function describePart(
  header: Buffer,
  at: number,
  crc: number,
  packedLength: number,
  size: number,
  nameLength: number,
): void {
  header.writeUInt16LE(20, at)
  header.writeUInt16LE(0x0800, at + 2)
  header.writeUInt16LE(8, at + 4)
  header.writeUInt16LE(0x21, at + 8)
  header.writeUInt32LE(crc, at + 10)
  header.writeUInt32LE(packedLength, at + 14)
  header.writeUInt32LE(size, at + 18)
  header.writeUInt16LE(nameLength, at + 22)
}
