/**
 * A small, fast streaming reader of .xlsx files, for input workbooks.
 *
 * It reads the zip's central directory, then inflates only the parts it needs: the workbook
 * (sheet names, order, visibility), the styles (which cells are dates), the shared strings, and
 * the sheets it is asked for, one row at a time. Cells come out as what the user sees: text,
 * numbers, booleans, dates (by their number format), error codes, and the cached result of a
 * formula. Memory is the shared strings plus one chunk of XML; nothing else is kept.
 *
 * exceljs's streaming reader does the same job more generally and about three times slower;
 * read.ts falls back to it for what this reader does not handle (see XlsxUnsupported).
 */
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { createInflateRaw, inflateRawSync } from 'node:zlib'

export type XlsxSource = { path: string } | { bytes: Uint8Array }
export type XlsxCell = string | number | boolean | Date | null

/** The file is a zip this reader does not handle (zip64, missing parts); use another reader. */
export class XlsxUnsupported extends Error {
  override name = 'XlsxUnsupported'
}

interface ZipEntry {
  method: number
  compressedSize: number
  localOffset: number
}

export interface XlsxSheet {
  name: string
  state: 'visible' | 'hidden' | 'veryHidden'
  /** The sheet's part in the zip, e.g. xl/worksheets/sheet1.xml. */
  part: string
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

async function readAt(source: XlsxSource, position: number, length: number): Promise<Buffer> {
  if ('bytes' in source) {
    return Buffer.from(source.bytes.buffer, source.bytes.byteOffset + position, length)
  }
  const handle = await open(source.path, 'r')
  try {
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, position)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

async function sizeOf(source: XlsxSource): Promise<number> {
  if ('bytes' in source) return source.bytes.length
  const handle = await open(source.path, 'r')
  try {
    return (await handle.stat()).size
  } finally {
    await handle.close()
  }
}

async function centralDirectory(source: XlsxSource): Promise<Map<string, ZipEntry>> {
  const size = await sizeOf(source)
  const tailLength = Math.min(size, 65_557)
  const tail = await readAt(source, size - tailLength, tailLength)
  let at = -1
  for (let i = tail.length - 22; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i
      break
    }
  }
  if (at < 0) throw new XlsxUnsupported('no zip directory')
  const count = tail.readUInt16LE(at + 10)
  const cdSize = tail.readUInt32LE(at + 12)
  const cdOffset = tail.readUInt32LE(at + 16)
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
    throw new XlsxUnsupported('zip64')
  const cd = await readAt(source, cdOffset, cdSize)
  const entries = new Map<string, ZipEntry>()
  let p = 0
  for (let n = 0; n < count; n += 1) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL)
      throw new XlsxUnsupported('broken zip directory')
    const method = cd.readUInt16LE(p + 10)
    const compressedSize = cd.readUInt32LE(p + 20)
    const nameLength = cd.readUInt16LE(p + 28)
    const extraLength = cd.readUInt16LE(p + 30)
    const commentLength = cd.readUInt16LE(p + 32)
    const localOffset = cd.readUInt32LE(p + 42)
    const name = cd.toString('utf8', p + 46, p + 46 + nameLength)
    if (compressedSize === 0xffffffff || localOffset === 0xffffffff)
      throw new XlsxUnsupported('zip64')
    entries.set(name.replace(/^\/+/, ''), { method, compressedSize, localOffset })
    p += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

async function dataStart(source: XlsxSource, entry: ZipEntry): Promise<number> {
  const header = await readAt(source, entry.localOffset, 30)
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL)
    throw new XlsxUnsupported('broken zip entry')
  return entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
}

function checkMethod(entry: ZipEntry) {
  if (entry.method !== 0 && entry.method !== 8)
    throw new XlsxUnsupported(`zip compression method ${entry.method}`)
}

/** A whole (small) part as text. */
async function partText(source: XlsxSource, entry: ZipEntry): Promise<string> {
  checkMethod(entry)
  const start = await dataStart(source, entry)
  const raw = await readAt(source, start, entry.compressedSize)
  return (entry.method === 8 ? inflateRawSync(raw) : raw).toString('utf8')
}

/** A part as a stream of text chunks. */
async function* partChunks(source: XlsxSource, entry: ZipEntry): AsyncGenerator<string> {
  checkMethod(entry)
  const start = await dataStart(source, entry)
  const end = start + entry.compressedSize
  const raw: Readable =
    'bytes' in source
      ? Readable.from([
          Buffer.from(source.bytes.buffer, source.bytes.byteOffset + start, entry.compressedSize),
        ])
      : createReadStream(source.path, { start, end: end - 1, highWaterMark: 256 * 1024 })
  const stream = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw
  raw.once('error', (error) => stream.destroy(error))
  stream.setEncoding('utf8')
  for await (const chunk of stream) yield chunk as string
}

// Patterns of the sheet XML, made once (a regex literal inside a loop is a new object each time).
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/
const ROW_NUMBER = /\sr="(\d+)"/
const CELL_REF = /\sr="([A-Z]+)/
const CELL_TYPE = /\st="([^"]*)"/
const CELL_STYLE = /\ss="(\d+)"/
const VALUE = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/
const INLINE = /<is>([\s\S]*?)<\/is>/
const TEXT_RUN = /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g
const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decode(text: string): string {
  let out = text
  if (out.includes('&')) {
    out = out.replace(ENTITY, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
        return Number.isFinite(code) ? String.fromCodePoint(code) : whole
      }
      return ENTITIES[name] ?? whole
    })
  }
  // Excel escapes characters XML cannot hold as _xHHHH_.
  if (out.includes('_x')) {
    out = out.replace(EXCEL_ESCAPE, (_w, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  }
  return out
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return match ? decode(match[1]!) : undefined
}

/** The text of a shared string or inline string: its <t> runs, without phonetic guides. */
function runsText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml
  let out = ''
  TEXT_RUN.lastIndex = 0
  for (let m = TEXT_RUN.exec(body); m; m = TEXT_RUN.exec(body)) if (m[1] !== undefined) out += m[1]
  return decode(out)
}

/** Calls `each` with every complete `<tag ...>...</tag>` element in a stream of XML chunks. */
async function eachElement(
  chunks: AsyncIterable<string>,
  tag: string,
  each: (element: string) => void,
): Promise<void> {
  const open = `<${tag}`
  const close = `</${tag}>`
  let buffer = ''
  for await (const chunk of chunks) {
    buffer += chunk
    let position = 0
    for (;;) {
      const start = buffer.indexOf(open, position)
      if (start < 0) {
        position = Math.max(position, buffer.length - open.length)
        break
      }
      if (start + open.length >= buffer.length) {
        // The chunk ends inside the tag name: wait for the next one.
        position = start
        break
      }
      const after = buffer.charCodeAt(start + open.length)
      // `<rowBreaks` is not `<row`: the tag name must end here.
      if (
        after !== 32 &&
        after !== 62 &&
        after !== 47 &&
        after !== 9 &&
        after !== 10 &&
        after !== 13
      ) {
        position = start + open.length
        continue
      }
      const headEnd = buffer.indexOf('>', start)
      if (headEnd < 0) {
        position = start
        break
      }
      if (buffer.charCodeAt(headEnd - 1) === 47) {
        each(buffer.slice(start, headEnd + 1))
        position = headEnd + 1
        continue
      }
      const end = buffer.indexOf(close, headEnd)
      if (end < 0) {
        position = start
        break
      }
      each(buffer.slice(start, end + close.length))
      position = end + close.length
    }
    buffer = buffer.slice(position)
  }
}

const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
])

function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
  return /[dmyhs]/i.test(bare) && !/^[@#0.,% ]*$/.test(bare)
}

/** Which cell styles (cellXfs indexes) show a date. */
function dateStyles(stylesXml: string): boolean[] {
  const custom = new Map<number, string>()
  for (const m of stylesXml.matchAll(/<numFmt\b[^>]*>/g)) {
    const id = Number(attribute(m[0], 'numFmtId'))
    custom.set(id, attribute(m[0], 'formatCode') ?? '')
  }
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? ''
  const out: boolean[] = []
  for (const m of xfs.matchAll(/<xf\b[^>]*>/g)) {
    const id = Number(attribute(m[0], 'numFmtId') ?? 0)
    out.push(custom.has(id) ? isDateFormat(custom.get(id)!) : BUILTIN_DATE_FORMATS.has(id))
  }
  return out
}

function columnIndex(ref: string): number {
  let n = 0
  for (let i = 0; i < ref.length; i += 1) {
    const c = ref.charCodeAt(i)
    if (c < 65 || c > 90) break
    n = n * 26 + (c - 64)
  }
  return n - 1
}

export interface XlsxWorkbook {
  sheets: XlsxSheet[]
  /**
   * Streams one sheet's rows: cells by column (0-based), with the sheet's row number, and the
   * web links of the row's cells (column -> address) when it has any.
   */
  rows(
    sheet: XlsxSheet,
    each: (cells: XlsxCell[], rowNumber: number, links: Map<number, string> | undefined) => void,
  ): Promise<void>
}

/** A cell reference like "B12" as [row, column (0-based)]. */
function cellRef(ref: string): [number, number] | null {
  const match = /^([A-Z]+)(\d+)$/.exec(ref)
  return match ? [Number(match[2]), columnIndex(match[1]!)] : null
}

export async function openXlsx(source: XlsxSource): Promise<XlsxWorkbook> {
  const entries = await centralDirectory(source)
  const part = (name: string) => entries.get(name)
  const workbookEntry = part('xl/workbook.xml')
  const relsEntry = part('xl/_rels/workbook.xml.rels')
  if (!workbookEntry || !relsEntry) throw new XlsxUnsupported('no workbook part')
  const workbookXml = await partText(source, workbookEntry)
  const relsXml = await partText(source, relsEntry)
  const targets = new Map<string, string>()
  for (const m of relsXml.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = attribute(m[0], 'Id')
    const target = attribute(m[0], 'Target')
    if (id && target)
      targets.set(
        id,
        target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`,
      )
  }
  const date1904 = /<workbookPr\b[^>]*\bdate1904="(1|true)"/.test(workbookXml)
  const sheets: XlsxSheet[] = []
  for (const m of workbookXml.matchAll(/<sheet\b[^>]*>/g)) {
    const id = /\sr:id="([^"]*)"/.exec(m[0])?.[1] ?? attribute(m[0], 'id')
    const target = id ? targets.get(id) : undefined
    if (!target || !part(target)) continue
    const state = attribute(m[0], 'state')
    sheets.push({
      name: attribute(m[0], 'name') ?? '',
      state: state === 'hidden' || state === 'veryHidden' ? state : 'visible',
      part: target,
    })
  }
  // Every part this reader may inflate is checked now, so that a fallback to another reader
  // happens before any row was read, never half-way.
  for (const name of [...sheets.map((sh) => sh.part), 'xl/sharedStrings.xml', 'xl/styles.xml'])
    if (part(name)) checkMethod(part(name)!)
  const stylesEntry = part('xl/styles.xml')
  const dates = stylesEntry ? dateStyles(await partText(source, stylesEntry)) : []

  let shared: string[] | null = null
  const sharedStrings = async (): Promise<string[]> => {
    if (shared) return shared
    const list: string[] = []
    const entry = part('xl/sharedStrings.xml')
    if (entry) await eachElement(partChunks(source, entry), 'si', (si) => list.push(runsText(si)))
    shared = list
    return list
  }

  const epoch = date1904 ? 24107 : 25569
  const toDate = (serial: number) => new Date(Math.round((serial - epoch) * 86_400_000))

  /**
   * The web links of a sheet: row -> column -> address. They sit after the rows in the sheet's
   * XML, so a sheet whose relationships name any hyperlink is scanned for them first.
   */
  const sheetLinks = async (sheet: XlsxSheet): Promise<Map<number, Map<number, string>>> => {
    const links = new Map<number, Map<number, string>>()
    const slash = sheet.part.lastIndexOf('/')
    const relsPart = part(`${sheet.part.slice(0, slash)}/_rels/${sheet.part.slice(slash + 1)}.rels`)
    if (!relsPart) return links
    const targets = new Map<string, string>()
    for (const m of (await partText(source, relsPart)).matchAll(/<Relationship\b[^>]*>/g)) {
      const type = attribute(m[0], 'Type') ?? ''
      const id = attribute(m[0], 'Id')
      const target = attribute(m[0], 'Target')
      if (id && target && type.endsWith('/hyperlink')) targets.set(id, target)
    }
    if (targets.size === 0) return links
    await eachElement(partChunks(source, part(sheet.part)!), 'hyperlink', (element) => {
      const id = /\sr:id="([^"]*)"/.exec(element)?.[1]
      const target = id ? targets.get(id) : undefined
      const [from, to = from] = (attribute(element, 'ref') ?? '').split(':')
      const start = cellRef(from ?? '')
      const end = cellRef(to ?? '')
      if (!target || !start || !end) return
      for (let r = start[0]; r <= end[0] && r - start[0] < 100_000; r += 1) {
        const row = links.get(r) ?? new Map<number, string>()
        for (let c = start[1]; c <= end[1]; c += 1) row.set(c, target)
        links.set(r, row)
      }
    })
    return links
  }

  return {
    sheets,
    async rows(sheet, each) {
      const strings = await sharedStrings()
      const links = await sheetLinks(sheet)
      const cellPattern = new RegExp(CELL.source, 'g')
      let lastRow = 0
      await eachElement(partChunks(source, part(sheet.part)!), 'row', (rowXml) => {
        const head = rowXml.slice(0, rowXml.indexOf('>') + 1)
        const r = ROW_NUMBER.exec(head)?.[1]
        const rowNumber = r ? Number(r) : lastRow + 1
        lastRow = rowNumber
        const cells: XlsxCell[] = []
        let column = -1
        cellPattern.lastIndex = 0
        for (let m = cellPattern.exec(rowXml); m; m = cellPattern.exec(rowXml)) {
          const attrs = m[1]!
          const ref = CELL_REF.exec(attrs)?.[1]
          column = ref ? columnIndex(ref) : column + 1
          const body = m[2]
          if (body === undefined) continue
          const type = CELL_TYPE.exec(attrs)?.[1] ?? 'n'
          let value: XlsxCell = null
          if (type === 'inlineStr') {
            value = runsText(INLINE.exec(body)?.[1] ?? '')
          } else {
            const v = VALUE.exec(body)?.[1]
            if (v === undefined) continue
            if (type === 's') value = strings[Number(v)] ?? ''
            else if (type === 'b') value = v === '1' || v === 'true'
            else if (type === 'str' || type === 'e') value = decode(v)
            else if (type === 'd') value = new Date(decode(v))
            else {
              const n = Number(v)
              const style = CELL_STYLE.exec(attrs)?.[1]
              value = style !== undefined && dates[Number(style)] ? toDate(n) : n
            }
          }
          while (cells.length < column) cells.push(null)
          cells[column] = value
        }
        each(cells, rowNumber, links.get(rowNumber))
      })
    },
  }
}
