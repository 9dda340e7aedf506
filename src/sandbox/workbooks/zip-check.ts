/**
 * Unpacks every part of an xlsx once, counting and discarding the bytes, before exceljs sees the
 * file: exceljs unpacks without a ceiling, so a zip bomb (a few KB that unpack to gigabytes) or
 * a broken zip stops here, with a file error, instead of inside it.
 */
import { createInflateRaw } from 'node:zlib'
import { MAX_UNPACKED_BYTES, MAX_ZIP_ENTRIES, RESAVE, WorkbookProblem } from './file-problem'

export interface ZipPart {
  name: string
  method: number
  encrypted: boolean
  packedSize: number
  localHeaderAt: number
}

const damaged = (what: string) =>
  new WorkbookProblem(
    `The workbook could not be read because the file is damaged: ${what}. ${RESAVE}`,
  )

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** Where the central directory starts and how many parts it lists (zip64 records included). */
function directoryOf(bytes: Uint8Array): { at: number; parts: number } {
  const data = view(bytes)
  // The end record sits in the last 22 bytes, plus a comment of at most 65,535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at -= 1) {
    if (data.getUint32(at, true) !== 0x06054b50) continue
    let parts = data.getUint16(at + 10, true)
    let start = data.getUint32(at + 16, true)
    const locator = at - 20
    if ((parts === 0xffff || start === 0xffffffff) && locator >= 0) {
      if (data.getUint32(locator, true) !== 0x07064b50)
        throw damaged('its zip64 records are missing')
      const record = Number(data.getBigUint64(locator + 8, true))
      if (record + 56 > bytes.length || data.getUint32(record, true) !== 0x06064b50)
        throw damaged('its zip64 end record is missing')
      parts = Number(data.getBigUint64(record + 32, true))
      start = Number(data.getBigUint64(record + 48, true))
    }
    return { at: start, parts }
  }
  throw damaged('the end of its zip directory is missing')
}

/** The zip64 sizes and offset of a directory entry whose 32-bit fields are full. */
function zip64Values(data: DataView, extraAt: number, extraEnd: number, wanted: boolean[]) {
  const values: number[] = []
  for (let at = extraAt; at + 4 <= extraEnd;) {
    const id = data.getUint16(at, true)
    const size = data.getUint16(at + 2, true)
    if (id === 0x0001) {
      let field = at + 4
      for (const want of wanted) {
        if (!want) continue
        if (field + 8 > at + 4 + size) throw damaged('a zip64 field is cut short')
        values.push(Number(data.getBigUint64(field, true)))
        field += 8
      }
      return values
    }
    at += 4 + size
  }
  throw damaged('a zip64 field is missing')
}

export function partsOf(bytes: Uint8Array): ZipPart[] {
  const data = view(bytes)
  const directory = directoryOf(bytes)
  if (directory.parts > MAX_ZIP_ENTRIES)
    throw new WorkbookProblem(
      `The file holds more parts than a workbook can (${directory.parts.toLocaleString('en-US')} zip entries). ${RESAVE}`,
    )
  const parts: ZipPart[] = []
  let at = directory.at
  for (let i = 0; i < directory.parts; i += 1) {
    if (at + 46 > bytes.length || data.getUint32(at, true) !== 0x02014b50)
      throw damaged('its zip directory is cut short')
    const nameLength = data.getUint16(at + 28, true)
    const extraLength = data.getUint16(at + 30, true)
    const commentLength = data.getUint16(at + 32, true)
    let packedSize = data.getUint32(at + 20, true)
    const unpackedSize = data.getUint32(at + 24, true)
    let localHeaderAt = data.getUint32(at + 42, true)
    const wanted = [unpackedSize, packedSize, localHeaderAt].map((v) => v === 0xffffffff)
    if (wanted.some(Boolean)) {
      const values = zip64Values(
        data,
        at + 46 + nameLength,
        at + 46 + nameLength + extraLength,
        wanted,
      )
      if (wanted[0]) values.shift()
      if (wanted[1]) packedSize = values.shift()!
      if (wanted[2]) localHeaderAt = values.shift()!
    }
    parts.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: data.getUint16(at + 10, true),
      encrypted: (data.getUint16(at + 8, true) & 1) === 1,
      packedSize,
      localHeaderAt,
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return parts
}

/** The packed bytes of a part, found through its local header. */
export function packedBytesOf(bytes: Uint8Array, part: ZipPart): Uint8Array {
  const data = view(bytes)
  const at = part.localHeaderAt
  if (at + 30 > bytes.length || data.getUint32(at, true) !== 0x04034b50)
    throw damaged(`the part “${part.name}” is not where the directory says`)
  const start = at + 30 + data.getUint16(at + 26, true) + data.getUint16(at + 28, true)
  if (start + part.packedSize > bytes.length) throw damaged(`the part “${part.name}” is cut short`)
  return bytes.subarray(start, start + part.packedSize)
}

/** Bytes a deflated part unpacks to, stopping as soon as it passes `limit`. */
function unpackedSize(packed: Uint8Array, limit: number, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw()
    let total = 0
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length
      if (total <= limit) return
      inflate.destroy()
      reject(
        new WorkbookProblem(
          `The part “${name}” unpacks to more than a workbook of this kind can hold (a damaged file, or one built to exhaust memory). ${RESAVE}`,
        ),
      )
    })
    inflate.on('error', () => reject(damaged(`the part “${name}” cannot be unpacked`)))
    inflate.on('end', () => resolve(total))
    inflate.end(packed)
  })
}

/**
 * Throws a WorkbookProblem unless every part unpacks, all within MAX_UNPACKED_BYTES; answers the
 * names of the parts.
 */
export async function checkZipParts(bytes: Uint8Array): Promise<string[]> {
  let total = 0
  const parts = partsOf(bytes)
  for (const part of parts) {
    if (part.name.endsWith('/')) continue
    if (part.encrypted)
      throw new WorkbookProblem(
        `The part “${part.name}” is encrypted inside the file. Remove the password in the program that made it, save, and try again.`,
      )
    const packed = packedBytesOf(bytes, part)
    if (part.method === 0) total += packed.length
    else if (part.method === 8)
      total += await unpackedSize(packed, MAX_UNPACKED_BYTES - total, part.name)
    else
      throw new WorkbookProblem(
        `The part “${part.name}” is packed with a compression method this app cannot read (method ${part.method}). ${RESAVE}`,
      )
    if (total > MAX_UNPACKED_BYTES)
      throw new WorkbookProblem(
        `The workbook unpacks to more than 2 GB, more than the service reads. Split it into smaller workbooks and try again.`,
      )
  }
  return parts.map((part) => part.name)
}
