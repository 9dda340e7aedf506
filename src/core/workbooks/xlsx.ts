/**
 * The fast streaming reader of .xlsx files (Office Open XML, transitional and strict).
 *
 * It finds the workbook through the package's relationships (wherever the writer put it), then
 * inflates only what it needs: the workbook (sheet names, order, visibility, kind), the styles
 * (which cells show a date, a time of day or a duration), the shared strings, and the sheet it
 * is asked for, one row at a time. Cells come out as what the user sees: text, numbers,
 * booleans, dates, times of day ("14:30:00"), durations ("36:15:00"), error codes, and the
 * cached result of a formula. Every size is checked before it is allocated (limits.ts).
 */
import type { CellValue } from '../../shared/input-schema'
import {
  MAX_COLUMNS,
  MAX_ROWS,
  MAX_SHARED_STRINGS_BYTES,
  MAX_SHEET_BYTES,
  MAX_SMALL_PART_BYTES,
  RESAVE,
  WorkbookFileError,
} from './limits'
import { attribute, decodeXmlText, eachElement, startTags, unprefixed, unprefixedText } from './xml'
import { decodeText, textChunks, type Zip, type ZipEntry } from './zip'

/** The zip is not an xlsx this reader knows (no workbook part); another reader may try. */
export class XlsxUnsupported extends Error {
  override name = 'XlsxUnsupported'
}

export interface XlsxSheet {
  name: string
  state: 'visible' | 'hidden' | 'veryHidden'
  /** worksheet, or a chart sheet / macro sheet / dialog sheet that holds no rows. */
  kind: 'worksheet' | 'other'
  /** The sheet's part in the zip, e.g. xl/worksheets/sheet1.xml. */
  part: string
}

export interface XlsxWorkbook {
  sheets: XlsxSheet[]
  /**
   * Streams one sheet's rows: cells by column (0-based), with the sheet's row number, and the
   * web links of the row's cells (column -> address) when it has any.
   */
  rows(
    sheet: XlsxSheet,
    each: (cells: CellValue[], rowNumber: number, links: Map<number, string> | undefined) => void,
  ): Promise<void>
}

/** A part name relative to the folder of the part that names it ("../x" and "/x" included). */
function resolvePart(base: string, target: string): string {
  const clean = target.replace(/\\/g, '/')
  const parts = clean.startsWith('/') ? [] : base.split('/').slice(0, -1)
  for (const segment of clean.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') parts.pop()
    else parts.push(segment)
  }
  return parts.join('/')
}

function relsPartOf(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

interface Relationship {
  type: string
  target: string
  external: boolean
}

async function smallText(zip: Zip, entry: ZipEntry): Promise<string> {
  return unprefixedText(decodeText(await zip.bytes(entry, MAX_SMALL_PART_BYTES)))
}

async function relationships(zip: Zip, part: string): Promise<Map<string, Relationship>> {
  const out = new Map<string, Relationship>()
  const entry = zip.find(relsPartOf(part))
  if (!entry) return out
  for (const tag of startTags(await smallText(zip, entry), 'Relationship')) {
    const id = attribute(tag, 'Id')
    const target = attribute(tag, 'Target')
    if (!id || target === undefined) continue
    const external = attribute(tag, 'TargetMode') === 'External'
    out.set(id, {
      type: attribute(tag, 'Type') ?? '',
      target: external ? target : resolvePart(part, target),
      external,
    })
  }
  return out
}

const typeIs = (rel: Relationship, name: string) =>
  rel.type.toLowerCase().endsWith(`/${name.toLowerCase()}`)

// Built-in number formats (ECMA-376 18.8.30, and the East Asian ones Excel maps to dates).
const BUILTIN_DATES = new Set([
  14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58,
])
const BUILTIN_TIMES = new Set([18, 19, 20, 21, 32, 33, 45, 47])
const BUILTIN_DURATIONS = new Set([46])

/** How a number in a cell of this style is shown. */
type Shown = 'number' | 'date' | 'datetime' | 'time' | 'time-s' | 'duration'

/** What a custom number format shows (its first section decides, as for positive numbers). */
export function formatKind(code: string): Shown {
  const section = code.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)[0] ?? ''
  const elapsed = /\[(h+|m+|s+)\]/i.test(section)
  const bare = section
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
    .toLowerCase()
  if (elapsed) return 'duration'
  if (/general|^[@#0.,%?\s e+-]*$/.test(bare) && !/[dyhs]/.test(bare)) return 'number'
  const hasDate = /[dye]/.test(bare) || (/m/.test(bare) && !/[hs]/.test(bare))
  // AM/PM (or A/P) alone still shows a time of day.
  const hasTime = /[hs]/.test(bare) || /am\/pm|a\/p/.test(bare)
  if (hasDate) return hasTime ? 'datetime' : 'date'
  if (hasTime) return /s/.test(bare) ? 'time-s' : 'time'
  return 'number'
}

export function builtinKind(id: number): Shown {
  if (BUILTIN_DATES.has(id)) return id === 22 ? 'datetime' : 'date'
  if (BUILTIN_TIMES.has(id)) return id === 20 || id === 32 ? 'time' : 'time-s'
  if (BUILTIN_DURATIONS.has(id)) return 'duration'
  return 'number'
}

/** How each cell style (cellXfs index) shows numbers. */
function styleKinds(stylesXml: string): Shown[] {
  const custom = new Map<number, string>()
  for (const tag of startTags(stylesXml, 'numFmt')) {
    const id = Number(attribute(tag, 'numFmtId'))
    if (Number.isInteger(id)) custom.set(id, attribute(tag, 'formatCode') ?? '')
  }
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? ''
  return startTags(xfs, 'xf').map((tag) => {
    const id = Number(attribute(tag, 'numFmtId') ?? 0)
    return custom.has(id) ? formatKind(custom.get(id)!) : builtinKind(id)
  })
}

const DAY_MS = 86_400_000
/** Excel's last date, 9999-12-31, as a 1900-system serial. */
const LAST_SERIAL = 2_958_465

function two(n: number) {
  return n < 10 ? `0${n}` : String(n)
}

/** A time of day as Excel shows it: "14:30" or "14:30:05". */
function timeOfDay(fraction: number, seconds: boolean): string {
  let total = Math.round(fraction * 86_400)
  if (total >= 86_400) total = 0
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return seconds ? `${two(h)}:${two(m)}:${two(s)}` : `${two(h)}:${two(m)}`
}

/** A duration in hours, minutes and seconds ("36:15:00"). */
function duration(days: number): string {
  const sign = days < 0 ? '-' : ''
  const total = Math.round(Math.abs(days) * 86_400)
  return `${sign}${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`
}

/**
 * A serial number shown as a date. Outside Excel's dates (before 1900 or after 9999) the number
 * stays a number, so a date field says the cell is not a date instead of the file failing.
 * In the 1900 system, days before March 1900 follow Excel's calendar, which counts a
 * 29 February 1900 that never was: that day is text no date field accepts.
 */
export function serialValue(serial: number, kind: Shown, date1904: boolean): CellValue {
  if (kind === 'number' || !Number.isFinite(serial)) return serial
  if (kind === 'duration') return duration(serial)
  const fraction = serial - Math.floor(serial)
  if (kind === 'time' || kind === 'time-s') return timeOfDay(fraction, kind === 'time-s')
  const last = date1904 ? LAST_SERIAL - 1462 : LAST_SERIAL
  if (serial < 0 || serial >= last + 1) return serial
  const day = Math.floor(serial)
  if (day === 0 && !date1904) return kind === 'datetime' ? timeOfDay(fraction, true) : serial
  let epochDays: number
  if (date1904) epochDays = -24107
  else if (day < 60) epochDays = -25568
  else if (day === 60) return '1900-02-29'
  else epochDays = -25569
  const ms = Math.round((serial + epochDays) * DAY_MS)
  return new Date(kind === 'date' ? Math.floor(ms / DAY_MS) * DAY_MS : ms)
}

const ISO_VALUE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/
const TIME_VALUE = /^T?(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/

/** A `t="d"` cell (ISO 8601): a date, a date and time, or a time of day. */
export function isoCellValue(text: string): CellValue {
  const value = text.trim()
  const time = TIME_VALUE.exec(value)
  if (time) return `${time[1]}:${time[2]}:${time[3] ?? '00'}`
  const m = ISO_VALUE.exec(value)
  if (!m) return value
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // Excel writes a time of day as a date-time on its day 0.
  if (
    m[4] !== undefined &&
    ((year === 1899 && month === 12 && (day === 30 || day === 31)) ||
      (year === 1900 && month === 1 && day === 0))
  )
    return `${m[4]}:${m[5]}:${m[6] ?? '00'}`
  const ms =
    m[8] && m[8] !== 'Z'
      ? Date.parse(value)
      : Date.UTC(
          year,
          month - 1,
          day,
          Number(m[4] ?? 0),
          Number(m[5] ?? 0),
          Number(m[6] ?? 0),
          Math.round(Number(m[7] ?? 0) * 1000),
        )
  const date = new Date(ms)
  if (Number.isNaN(ms) || (date.getUTCDate() !== day && !m[8])) return value
  return date
}

/** Column index (0-based) of a cell reference's letters; past XFD is a file error. */
function columnIndex(ref: string, where: () => string): number {
  let n = 0
  for (let i = 0; i < ref.length; i += 1) {
    const c = ref.charCodeAt(i) & ~32
    if (c < 65 || c > 90) break
    n = n * 26 + (c - 64)
    if (n > MAX_COLUMNS) tooWide(where())
  }
  return n - 1
}

function tooWide(where: string): never {
  throw new WorkbookFileError(
    `${where} has a cell beyond column XFD, the last column a spreadsheet can have. ${RESAVE}`,
  )
}

function tooLong(where: string): never {
  throw new WorkbookFileError(
    `${where} has a row beyond row 1,048,576, the last row a spreadsheet can have. ${RESAVE}`,
  )
}

// Patterns of the sheet XML, made once.
const INLINE = /<is>([\s\S]*?)<\/is>/
const TEXT_RUN = /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g
const PHONETIC = /<rPh\b[\s\S]*?<\/rPh>/g

function endsName(code: number): boolean {
  // space, tab, newline, carriage return, '>' or '/'
  return code === 32 || code === 62 || code === 47 || code === 9 || code === 10 || code === 13
}

/**
 * What the last call of `scanAttributes` found in a start tag: kept in these variables rather
 * than in an object per cell, since a sheet of 100,000 rows has a million cells.
 */
let foundColumn = -1
/** Where the t attribute's value starts and ends (-1: no t attribute). */
let typeFrom = -1
let typeTo = -1
/** The s attribute (style index), or -1. */
let foundStyle = -1
/** The r attribute of a <row>: its number, or -1. */
let foundRowNumber = -1

/**
 * The r, t and s attributes of a start tag between `from` and `to` (either quote). For a cell,
 * r gives the column (its letters, a leading $ allowed; -1 when it has none); for a row
 * (`row` true), r is the row number.
 */
function scanAttributes(xml: string, from: number, to: number, row: boolean): void {
  foundColumn = -1
  typeFrom = -1
  typeTo = -1
  foundStyle = -1
  foundRowNumber = -1
  let i = from
  while (i < to) {
    // The usual ' r="A1"' answered without a search: its "=" is the first one from i.
    const eq =
      xml.charCodeAt(i + 2) === 61 && xml.charCodeAt(i + 1) !== 61 && xml.charCodeAt(i) !== 61
        ? i + 2
        : xml.indexOf('=', i)
    if (eq < 0 || eq >= to) break
    let nameEnd = eq
    while (nameEnd > i && xml.charCodeAt(nameEnd - 1) <= 32) nameEnd -= 1
    let q = eq + 1
    while (q < to && xml.charCodeAt(q) <= 32) q += 1
    const quote = xml.charCodeAt(q)
    if (quote !== 34 && quote !== 39) break
    let end = q + 1
    while (end < to && xml.charCodeAt(end) !== quote) end += 1
    if (end >= to) break
    // A one-letter name: the character before it ends the previous attribute or the tag name.
    const before = nameEnd - 2
    if (nameEnd - 1 >= i && (before < i || xml.charCodeAt(before) <= 32)) {
      const name = xml.charCodeAt(nameEnd - 1)
      if (name === 114 && row) {
        let n = 0
        let digits = 0
        for (let k = q + 1; k < end; k += 1) {
          const d = xml.charCodeAt(k) - 48
          if (d < 0 || d > 9) {
            digits = 0
            break
          }
          n = n * 10 + d
          digits += 1
          if (digits > 9) break
        }
        foundRowNumber = digits > 0 ? n : -1
      } else if (name === 114) {
        let k = q + 1
        if (xml.charCodeAt(k) === 36) k += 1
        let n = 0
        for (; k < end; k += 1) {
          const c = xml.charCodeAt(k) & ~32
          if (c < 65 || c > 90) break
          n = n * 26 + (c - 64)
          // Past XFD: the caller reports it (the letters after cannot bring it back).
          if (n > MAX_COLUMNS) break
        }
        foundColumn = n - 1
      } else if (name === 116) {
        typeFrom = q + 1
        typeTo = end
      } else if (name === 115) {
        let n = 0
        let k = q + 1
        for (; k < end; k += 1) {
          const d = xml.charCodeAt(k) - 48
          if (d < 0 || d > 9 || n > 1e9) break
          n = n * 10 + d
        }
        foundStyle = k === end && end > q + 1 ? n : -1
      }
    }
    i = end + 1
  }
}

/** Where the text of a cell's <v> between `from` and `to` starts and ends (see findValue). */
let valueFrom = 0
let valueTo = 0

/** Finds the text of a cell's <v> between `from` and `to`; false when it has none. */
function findValue(xml: string, from: number, to: number): boolean {
  let v = xml.indexOf('<v', from)
  while (v >= 0 && v < to && !endsName(xml.charCodeAt(v + 2))) v = xml.indexOf('<v', v + 2)
  if (v < 0 || v >= to) return false
  const gt = xml.indexOf('>', v)
  if (gt < 0 || gt >= to) return false
  if (xml.charCodeAt(gt - 1) === 47) {
    valueFrom = valueTo = gt
    return true
  }
  const end = xml.indexOf('</v>', gt)
  valueFrom = gt + 1
  valueTo = end < 0 || end > to ? to : end
  return true
}

/** The number `wholeNumber` read. */
let foundNumber = 0

/**
 * Whether the value text between `from` and `to` is plain digits (a minus sign allowed, at
 * most 15 digits: exact as a double), read into `foundNumber`. Anything else (decimals,
 * exponents, spaces) is left to Number.
 */
function wholeNumber(xml: string, from: number, to: number): boolean {
  let k = from
  const negative = xml.charCodeAt(k) === 45
  if (negative) k += 1
  if (k === to || to - k > 15) return false
  let n = 0
  for (; k < to; k += 1) {
    const d = xml.charCodeAt(k) - 48
    if (d < 0 || d > 9) return false
    n = n * 10 + d
  }
  foundNumber = negative ? -n : n
  return true
}

/** Whether `</v></c>` is at `at` (at is -1 when nothing was found). */
function closesValueAndCell(xml: string, at: number): boolean {
  return (
    at >= 0 &&
    xml.charCodeAt(at + 1) === 47 &&
    xml.charCodeAt(at + 2) === 118 &&
    xml.charCodeAt(at + 3) === 62 &&
    xml.charCodeAt(at + 4) === 60 &&
    xml.charCodeAt(at + 5) === 47 &&
    xml.charCodeAt(at + 6) === 99 &&
    xml.charCodeAt(at + 7) === 62
  )
}

/** The text of a shared string or inline string: its <t> runs, without phonetic guides. */
function runsText(xml: string): string {
  // The usual shape, <si><t>text</t></si> (or <t xml:space="preserve">, or <t> alone in an
  // inline string): one run and nothing else, read without a pattern.
  const t = xml.indexOf('<t')
  if (t >= 0) {
    const name = xml.charCodeAt(t + 2)
    const gt = name === 62 || name === 32 ? xml.indexOf('>', t) : -1
    const lt = gt > 0 && xml.charCodeAt(gt - 1) !== 47 ? xml.indexOf('<', gt) : -1
    if (lt > 0 && xml.startsWith('</t>', lt)) {
      const after = xml.indexOf('<', lt + 4)
      const before = t === 0 ? -1 : xml.lastIndexOf('<', t - 1)
      if (
        (after < 0 || (xml.charCodeAt(after + 1) === 47 && xml.indexOf('<', after + 1) < 0)) &&
        (before < 0 || (before === 0 && xml.indexOf('<', 1) === t))
      )
        return decodeXmlText(xml.slice(gt + 1, lt))
    }
  }
  const body = xml.includes('<rPh') ? xml.replace(PHONETIC, '') : xml
  let out = ''
  TEXT_RUN.lastIndex = 0
  for (let m = TEXT_RUN.exec(body); m; m = TEXT_RUN.exec(body)) if (m[1] !== undefined) out += m[1]
  return decodeXmlText(out)
}

/**
 * The shared strings of a workbook, by index. A plain string (no entity or escape to decode) is
 * kept as where it lies in the part's text, which is kept whole, and is cut out when a cell asks
 * for it: hundreds of thousands of strings kept as objects of their own would be copied and
 * marked by every garbage collection while the part is read, and cut out of that same text
 * anyway. Other strings are kept as they are.
 */
export class SharedStrings {
  /** The texts the strings lie in (each chunk of the part that holds one). */
  private readonly texts: string[] = []
  /**
   * Three numbers a string: its text (-1: kept in `kept`), and where it starts and ends. A
   * typed array, doubled when full: no object for the collector to visit, and at most three
   * numbers for every 16 characters of the part, whose size is capped before it is read.
   */
  private spans = new Int32Array(3 * 1024)
  private count = 0
  private readonly kept: string[] = []

  private push(text: number, from: number, to: number): void {
    let i = this.count * 3
    if (i === this.spans.length) {
      const larger = new Int32Array(this.spans.length * 2)
      larger.set(this.spans)
      this.spans = larger
    }
    this.spans[i++] = text
    this.spans[i++] = from
    this.spans[i] = to
    this.count += 1
  }

  /** A string of its own. */
  add(text: string): void {
    this.push(-1, this.kept.length, 0)
    this.kept.push(text)
  }

  /** The text last searched, and the next "&" and "_x" in it (-1: none; -2: not searched). */
  private searched = ''
  private amp = -2
  private escape = -2

  /** The string between `from` and `to` in `xml`, decoded (entities, `_xHHHH_`). */
  addSpan(xml: string, from: number, to: number): void {
    // Strings come in order, so each text is searched for "&" and "_x" once, not once a string.
    if (xml !== this.searched) {
      this.searched = xml
      this.amp = this.escape = -2
    }
    if (this.amp !== -1 && this.amp < from) this.amp = xml.indexOf('&', from)
    if (this.escape !== -1 && this.escape < from) this.escape = xml.indexOf('_x', from)
    if ((this.amp >= 0 && this.amp < to) || (this.escape >= 0 && this.escape + 1 < to)) {
      this.add(decodeXmlText(xml.slice(from, to)))
      return
    }
    // The same text as the previous string's (the same chunk) is most often the same object.
    let text = this.texts.length - 1
    if (text < 0 || this.texts[text] !== xml) text = this.texts.push(xml) - 1
    this.push(text, from, to)
  }

  /** The string at an index; '' for none (a cell pointing past the list). */
  at(index: number): string {
    if (!(index >= 0 && index < this.count) || !Number.isInteger(index)) return ''
    const i = index * 3
    const text = this.spans[i]!
    if (text < 0) return this.kept[this.spans[i + 1]!]!
    return this.texts[text]!.slice(this.spans[i + 1], this.spans[i + 2])
  }
}

/** A cell reference like "B12" as [row, column (0-based)], or null. */
function cellRef(ref: string): [number, number] | null {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref)
  if (!match) return null
  const row = Number(match[2])
  const column = columnIndex(match[1]!, () => 'A link')
  return row >= 1 && row <= MAX_ROWS ? [row, column] : null
}

/** Which package this zip is when it is no xlsx, for a message that says what to do. */
function otherPackage(zip: Zip): string | null {
  if (zip.find('xl/workbook.bin')) return 'an Excel binary workbook (.xlsb)'
  if (zip.find('content.xml') && zip.find('mimetype')) return 'an OpenDocument file (.ods)'
  if (zip.find('word/document.xml')) return 'a Word document'
  if (zip.find('ppt/presentation.xml')) return 'a PowerPoint presentation'
  if (zip.find('Index/Document.iwa')) return 'a Numbers document'
  return null
}

export async function openXlsx(zip: Zip, fileName: string): Promise<XlsxWorkbook> {
  // The workbook part: named by the package's relationships, else where Excel puts it.
  const root = await relationships(zip, '')
  const officeDocument = [...root.values()].find((r) => !r.external && typeIs(r, 'officeDocument'))
  let workbookPart = officeDocument?.target
  if (!workbookPart || !zip.find(workbookPart)) workbookPart = zip.find('xl/workbook.xml')?.name
  if (!workbookPart) {
    const other = otherPackage(zip)
    if (other)
      throw new WorkbookFileError(
        `“${fileName}” is ${other}, not an Excel workbook. Save it as .xlsx (Excel workbook) or .csv and try again.`,
      )
    throw new XlsxUnsupported('no workbook part')
  }
  const workbookXml = await smallText(zip, zip.find(workbookPart)!)
  const rels = await relationships(zip, workbookPart)
  const date1904 = startTags(workbookXml, 'workbookPr').some((tag) =>
    /^(1|true)$/i.test(attribute(tag, 'date1904') ?? ''),
  )
  const sheets: XlsxSheet[] = []
  for (const tag of startTags(workbookXml, 'sheet')) {
    const id = attribute(tag, '*:id') ?? attribute(tag, 'id')
    const rel = id ? rels.get(id) : undefined
    if (!rel || rel.external || !zip.find(rel.target)) continue
    const state = attribute(tag, 'state')
    sheets.push({
      name: attribute(tag, 'name') ?? '',
      state: state === 'hidden' || state === 'veryHidden' ? state : 'visible',
      kind: typeIs(rel, 'worksheet') ? 'worksheet' : 'other',
      part: zip.find(rel.target)!.name,
    })
  }
  const byType = (type: string, usual: string) => {
    const rel = [...rels.values()].find((r) => !r.external && typeIs(r, type))
    return (rel && zip.find(rel.target)) || zip.find(usual)
  }
  const stylesEntry = byType('styles', 'xl/styles.xml')
  const kinds = stylesEntry ? styleKinds(await smallText(zip, stylesEntry)) : []
  const sharedEntry = byType('sharedStrings', 'xl/sharedStrings.xml')

  let shared: SharedStrings | null = null
  const sharedStrings = async (): Promise<SharedStrings> => {
    if (shared) return shared
    const list = new SharedStrings()
    if (sharedEntry)
      await eachElement(
        unprefixed(textChunks(zip.inflate(sharedEntry, MAX_SHARED_STRINGS_BYTES))),
        'si',
        {
          // The usual string, <si><t>text</t></si> (or <t xml:space="preserve">), read where
          // it lies; any other shape goes to runsText on the element's copy.
          inPlace(xml, start, headEnd) {
            if (headEnd !== start + 3 || !xml.startsWith('<t', headEnd + 1)) return -1
            const t = headEnd + 1
            const name = xml.charCodeAt(t + 2)
            if (name !== 62 && name !== 32) return -1
            const gt = name === 62 ? t + 2 : xml.indexOf('>', t)
            // A <t/>, or the string's end tag inside a broken <t ...>: left to runsText.
            if (gt < 0 || xml.charCodeAt(gt - 1) === 47 || xml.startsWith('</si>', gt - 4))
              return -1
            const lt = xml.indexOf('<', gt)
            if (lt < 0 || !xml.startsWith('</t></si>', lt)) return -1
            list.addSpan(xml, gt + 1, lt)
            return lt + 9
          },
          whole: (si) => list.add(runsText(si)),
        },
        'The shared strings of the workbook',
      )
    shared = list
    return list
  }

  /** The web links of a sheet: row -> [first column, last column, address][]. */
  const sheetLinks = async (sheet: XlsxSheet) => {
    const single = new Map<number, [number, number, string][]>()
    const ranges: [number, number, number, number, string][] = []
    const sheetRels = await relationships(zip, sheet.part)
    const targets = new Map<string, string>()
    for (const [id, rel] of sheetRels) if (typeIs(rel, 'hyperlink')) targets.set(id, rel.target)
    if (targets.size === 0) return null
    await eachElement(
      unprefixed(textChunks(zip.inflate(zip.find(sheet.part)!, MAX_SHEET_BYTES))),
      'hyperlink',
      (element) => {
        const id = attribute(element, '*:id')
        const target = id ? targets.get(id) : undefined
        const [from, to = from] = (attribute(element, 'ref') ?? '').split(':')
        const start = cellRef(from ?? '')
        const end = cellRef(to ?? '')
        if (!target || !start || !end) return
        if (start[0] === end[0]) {
          const list = single.get(start[0]) ?? []
          list.push([start[1], end[1], target])
          single.set(start[0], list)
        } else if (ranges.length < 10_000) ranges.push([start[0], end[0], start[1], end[1], target])
      },
      `The sheet “${sheet.name}”`,
    )
    return (row: number, width: number): Map<number, string> | undefined => {
      const here = single.get(row)
      let out: Map<number, string> | undefined
      const add = (c1: number, c2: number, target: string) => {
        out ??= new Map()
        for (let c = c1; c <= Math.min(c2, width - 1); c += 1) out.set(c, target)
      }
      if (here) for (const [c1, c2, target] of here) add(c1, c2, target)
      for (const [r1, r2, c1, c2, target] of ranges) if (row >= r1 && row <= r2) add(c1, c2, target)
      return out
    }
  }

  /**
   * The value of a cell with a <v> whose text lies between `from` and `to`, by the type and
   * style `scanAttributes` found (any type but inlineStr).
   */
  const valueOf = (xml: string, from: number, to: number, strings: SharedStrings): CellValue => {
    // The type, without making a string for the usual ones (none: a number; s: shared).
    const typeLength = typeFrom < 0 ? 0 : typeTo - typeFrom
    if (typeLength === 1 && xml.charCodeAt(typeFrom) === 115) {
      // s: the index of a shared string, read from its digits.
      let n = 0
      let digits = 0
      for (let k = from; k < to; k += 1) {
        const d = xml.charCodeAt(k) - 48
        if (d >= 0 && d <= 9) {
          n = n * 10 + d
          digits += 1
        } else if (xml.charCodeAt(k) > 32 || digits > 0) {
          digits = -1
          break
        }
      }
      return strings.at(digits > 0 && digits < 16 ? n : Number(xml.slice(from, to)))
    }
    if (typeLength === 0 && wholeNumber(xml, from, to)) {
      // A number cell holding a whole number: read from its digits, no string made.
      const kind = foundStyle < 0 ? undefined : kinds[foundStyle]
      return kind === undefined || kind === 'number'
        ? foundNumber
        : serialValue(foundNumber, kind, date1904)
    }
    const type = typeLength === 0 ? 'n' : xml.slice(typeFrom, typeTo)
    const raw = xml.slice(from, to)
    if (type === 'b') return raw.trim() === '1' || raw.trim() === 'true'
    if (type === 'str' || type === 'e') return decodeXmlText(raw)
    if (type === 'd') return isoCellValue(decodeXmlText(raw))
    const n = Number(raw)
    if (raw.trim() === '' || Number.isNaN(n)) return decodeXmlText(raw)
    const kind = foundStyle < 0 ? undefined : kinds[foundStyle]
    return kind === undefined || kind === 'number' ? n : serialValue(n, kind, date1904)
  }

  const isInlineString = (xml: string) =>
    typeTo - typeFrom === 9 && xml.startsWith('inlineStr', typeFrom)

  return {
    sheets,
    async rows(sheet, each) {
      const strings = await sharedStrings()
      const linksOf = await sheetLinks(sheet)
      const where = `The sheet “${sheet.name}”`
      let lastRow = 0
      let rowsSeen = 0
      await eachElement(
        unprefixed(textChunks(zip.inflate(zip.find(sheet.part)!, MAX_SHEET_BYTES))),
        'row',
        {
          // The usual row, <row ...><c ...><v>text</v></c>...</row>, read in one pass where it
          // lies in the sheet's text: no copy of it, no second search for its end. Anything
          // else (a formula, an inline string, a row not all in this chunk, a broken limit) is
          // left to `whole`, so this never throws and changes nothing unless it reads the row.
          inPlace(xml, start, headEnd) {
            scanAttributes(xml, start + 4, headEnd, true)
            const rowNumber = foundRowNumber >= 0 ? foundRowNumber : lastRow + 1
            if (rowNumber > MAX_ROWS || rowsSeen >= MAX_ROWS) return -1
            const cells: CellValue[] = []
            let column = -1
            let at = headEnd + 1
            for (;;) {
              let code = xml.charCodeAt(at)
              while (code <= 32) code = xml.charCodeAt((at += 1))
              // Past the end of the text, charCodeAt is NaN: not a tag either.
              if (code !== 60) return -1
              const next = xml.charCodeAt(at + 1)
              if (next === 47) {
                if (!xml.startsWith('</row>', at)) return -1
                at += 6
                break
              }
              if (next !== 99 || !endsName(xml.charCodeAt(at + 2))) return -1
              const gt = xml.indexOf('>', at + 2)
              // The row's end tag inside a broken start tag: the first "</row>" ends the row.
              if (gt < 0 || xml.startsWith('</row>', gt - 5)) return -1
              const selfClosing = xml.charCodeAt(gt - 1) === 47
              scanAttributes(xml, at + 2, selfClosing ? gt - 1 : gt, false)
              column = foundColumn >= 0 ? foundColumn : column + 1
              if (column >= MAX_COLUMNS) return -1
              if (selfClosing) {
                at = gt + 1
                continue
              }
              // <v>text</v></c>, the text holding no tag (a million cells: their tags are
              // compared by character code, which costs less than a call of startsWith).
              if (
                xml.charCodeAt(gt + 1) !== 60 ||
                xml.charCodeAt(gt + 2) !== 118 ||
                xml.charCodeAt(gt + 3) !== 62 ||
                isInlineString(xml)
              )
                return -1
              const lt = xml.indexOf('<', gt + 4)
              if (!closesValueAndCell(xml, lt)) return -1
              const value = valueOf(xml, gt + 4, lt, strings)
              while (cells.length < column) cells.push(null)
              cells[column] = value
              at = lt + 8
            }
            rowsSeen += 1
            lastRow = rowNumber
            each(cells, rowNumber, linksOf?.(rowNumber, cells.length))
            return at
          },
          whole(rowXml) {
            const headEnd = rowXml.indexOf('>') + 1
            scanAttributes(rowXml, 4, headEnd - 1, true)
            const rowNumber = foundRowNumber >= 0 ? foundRowNumber : lastRow + 1
            rowsSeen += 1
            if (rowNumber > MAX_ROWS || rowsSeen > MAX_ROWS) tooLong(where)
            lastRow = rowNumber
            const cells: CellValue[] = []
            let column = -1
            // A hand-written scan (no regular expression, no object per cell).
            let at = headEnd
            for (;;) {
              const open = rowXml.indexOf('<c', at)
              if (open < 0) break
              if (!endsName(rowXml.charCodeAt(open + 2))) {
                at = open + 2
                continue
              }
              const gt = rowXml.indexOf('>', open)
              if (gt < 0) break
              const selfClosing = rowXml.charCodeAt(gt - 1) === 47
              scanAttributes(rowXml, open + 2, selfClosing ? gt - 1 : gt, false)
              column = foundColumn >= 0 ? foundColumn : column + 1
              if (column >= MAX_COLUMNS) tooWide(where)
              if (selfClosing) {
                at = gt + 1
                continue
              }
              let close = rowXml.indexOf('</c>', gt)
              if (close < 0) close = rowXml.length
              at = close + 4
              let value: CellValue
              if (isInlineString(rowXml)) {
                value = runsText(INLINE.exec(rowXml.slice(gt + 1, close))?.[1] ?? '')
              } else {
                if (!findValue(rowXml, gt + 1, close)) continue
                value = valueOf(rowXml, valueFrom, valueTo, strings)
              }
              while (cells.length < column) cells.push(null)
              cells[column] = value
            }
            each(cells, rowNumber, linksOf?.(rowNumber, cells.length))
          },
        },
        where,
      )
    },
  }
}
