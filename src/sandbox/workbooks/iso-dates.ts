/**
 * Strict workbooks (ISO 29500 Strict, as Excel saves "Strict Open XML") hold dates as ISO text in
 * cells of type "d". exceljs reads that text as a number (2009-01-01 becomes 2009, then a day in
 * 1905), so before exceljs sees such a file, its sheets' "d" cells are written back as the serial
 * numbers the same file saved as transitional holds: exceljs then shows them by their style, as
 * it does every transitional date. A file without "d" cells is passed on untouched.
 */
import { crc32, inflateRawSync } from 'node:zlib'
import { packedBytesOf, partsOf, type ZipPart } from './zip-check'

const DAY_MS = 86_400_000
const EPOCH_SERIAL = 25_569
// A cell of type "d" with content; and an empty one (no value to convert: its type goes).
const D_CELL = /<c\b([^>]*?)\s+t\s*=\s*(["'])d\2([^>/]*)>([\s\S]*?)<\/c>/g
const EMPTY_D_CELL = /<c\b([^>]*?)\s+t\s*=\s*(["'])d\2([^>]*)\/>/g
const VALUE = /<v>([^<]*)<\/v>/
const TIME = /^T?(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+)?(Z|[+-]\d{2}:?\d{2})?$/

/** An ISO date, date-time or time of day as a serial number; null when it is none. */
function serialOf(text: string): number | null {
  const value = text.trim()
  const time = TIME.exec(value)
  if (time) return (Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0)) / 86_400
  const date = DATE.exec(value)
  if (!date) return null
  // Without an offset the text is the day as written, not a moment in this computer's zone.
  const ms = Date.parse(
    date[1] ? value : `${value.replace(' ', 'T')}${value.length > 10 ? 'Z' : ''}`,
  )
  return Number.isNaN(ms) ? null : ms / DAY_MS + EPOCH_SERIAL
}

/** A sheet's XML with each "d" cell's ISO value as its serial (a value that is none stays text). */
function withSerials(xml: string): string {
  return xml
    .replace(EMPTY_D_CELL, '<c$1$3/>')
    .replace(D_CELL, (_cell, before: string, _q: string, after: string, body: string) => {
      const text = VALUE.exec(body)?.[1]
      const serial = text === undefined ? null : serialOf(text)
      if (serial === null) return `<c${before} t="str"${after}>${body}</c>`
      return `<c${before}${after}>${body.replace(VALUE, `<v>${serial}</v>`)}</c>`
    })
}

/** A zip of `files`, stored (not packed again): only ever read back by exceljs, in memory. */
function storedZip(files: { name: string; data: Buffer }[]): Buffer {
  const chunks: Buffer[] = []
  const directory: Buffer[] = []
  let offset = 0
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name, 'utf8')
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    // From "version needed" to the name's length, the directory entry repeats the local header.
    local.copy(central, 6, 4)
    central.writeUInt32LE(offset, 42)
    chunks.push(local, nameBytes, data)
    directory.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const size = directory.reduce((sum, b) => sum + b.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(files.length, 8)
  end.writeUInt16LE(files.length, 10)
  end.writeUInt32LE(size, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...chunks, ...directory, end])
}

/**
 * The workbook with its sheets' ISO date cells as serial numbers, or the same bytes when it has
 * none. Call only after checkZipParts: every part is known to unpack within the limits.
 */
export function withIsoDatesAsSerials(bytes: Uint8Array): Uint8Array {
  const parts = partsOf(bytes).filter((part) => !part.name.endsWith('/'))
  const unpacked = (part: ZipPart) => {
    const packed = packedBytesOf(bytes, part)
    return Buffer.from(part.method === 8 ? inflateRawSync(packed) : packed)
  }
  const hasDates = (data: Buffer) => data.includes('t="d"') || data.includes("t='d'")
  const sheets = new Set(
    parts.filter((part) => /worksheets\//i.test(part.name) && hasDates(unpacked(part))),
  )
  if (sheets.size === 0) return bytes
  return storedZip(
    parts.map((part) => ({
      name: part.name,
      data: sheets.has(part) ? Buffer.from(withSerials(String(unpacked(part)))) : unpacked(part),
    })),
  )
}
