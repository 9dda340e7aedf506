/**
 * Comma-separated (and tab- or semicolon-separated) text, streamed record by record.
 *
 * The encoding is decided before the first row: a BOM says UTF-8, UTF-16 LE or UTF-16 BE (Excel's
 * "CSV UTF-8" and "Unicode Text"); without one the file is UTF-8 when every byte sequence is valid
 * UTF-8, and Windows-1252 (Excel's plain "CSV" on Windows) otherwise, which the reader says. Lines
 * end in CR, LF or CRLF; a first line `sep=;` (Excel's) names the separator; quotes follow RFC 4180.
 */
import { MAX_COLUMNS, MAX_CSV_RECORD_CHARS, MAX_ROWS, WorkbookFileError } from './limits'
import type { RowSink } from './columns'
import {
  baseName,
  openByteSource,
  sourceName,
  type ByteSource,
  type WorkbookSource,
} from './source'

export interface CsvInfo {
  /** The encoding the text was read in, as a user would name it. */
  encoding: string
  /** The separator used. */
  separator: string
  /** Whether that was said by a `sep=` first line. */
  separatorLine: boolean
}

type Encoding = {
  label: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'
  bom: number
  name: string
}

/** Whether every byte of the file is valid UTF-8 (read in chunks; nothing kept). */
async function isUtf8(bytes: ByteSource, from: number): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  try {
    for await (const chunk of bytes.chunks(from, bytes.size, 1024 * 1024))
      decoder.decode(chunk, { stream: true })
    decoder.decode()
    return true
  } catch {
    return false
  }
}

async function detectEncoding(bytes: ByteSource): Promise<Encoding> {
  const head = await bytes.readAt(0, 4096)
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { label: 'utf-8', bom: 3, name: 'UTF-8 (with BOM)' }
  if (head[0] === 0xff && head[1] === 0xfe) return { label: 'utf-16le', bom: 2, name: 'UTF-16 LE' }
  if (head[0] === 0xfe && head[1] === 0xff) return { label: 'utf-16be', bom: 2, name: 'UTF-16 BE' }
  // UTF-16 without a BOM: zero bytes in every other place.
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenZeros += 1
    if (head[i + 1] === 0) oddZeros += 1
  }
  const pairs = Math.floor(head.length / 2)
  if (pairs >= 2 && oddZeros > pairs * 0.4 && evenZeros === 0)
    return { label: 'utf-16le', bom: 0, name: 'UTF-16 LE (no BOM)' }
  if (pairs >= 2 && evenZeros > pairs * 0.4 && oddZeros === 0)
    return { label: 'utf-16be', bom: 0, name: 'UTF-16 BE (no BOM)' }
  if (await isUtf8(bytes, 0)) return { label: 'utf-8', bom: 0, name: 'UTF-8' }
  return { label: 'windows-1252', bom: 0, name: 'Windows-1252 (it is not UTF-8)' }
}

/** The separator a first line uses: the most frequent of , ; and tab outside quotes (ties: comma). */
function guessSeparator(line: string, tabbed: boolean): string {
  if (tabbed) return '\t'
  const counts = new Map([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ])
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1)
  }
  let best = ','
  for (const [sep, n] of counts) if (n > counts.get(best)!) best = sep
  return best
}

/** Streams a csv file's records as cells (empty fields as null) with their line-based row numbers. */
export async function readCsv(source: WorkbookSource, sink: RowSink): Promise<CsvInfo> {
  const bytes = await openByteSource(source)
  try {
    return await readCsvBytes(bytes, sourceName(source), sink)
  } finally {
    await bytes.close()
  }
}

export async function readCsvBytes(
  bytes: ByteSource,
  name: string,
  sink: RowSink,
): Promise<CsvInfo> {
  const encoding = await detectEncoding(bytes)
  // fatal: a byte sequence that is not text in the chosen encoding is an error, never U+FFFD.
  const decoder = new TextDecoder(encoding.label, { fatal: true, ignoreBOM: true })
  const tabbed = /\.(tsv|tab)$/i.test(name)
  let separator: string | null = null
  let separatorLine = false
  let field = ''
  let record: string[] = []
  let recordChars = 0
  let quoted = false
  let afterQuote = false
  let rowNumber = 1
  let started = false
  /** A CR ended the last record; an LF right after it belongs to it. */
  let afterCR = false
  let pending = ''
  const emit = () => {
    record.push(field)
    if (rowNumber > MAX_ROWS)
      throw new WorkbookFileError(
        `“${baseName(name)}” has more than 1,048,576 lines, more than a spreadsheet can hold. Split it into smaller files and try again.`,
      )
    sink.row(
      record.map((c) => (c === '' ? null : c)),
      rowNumber,
    )
    rowNumber += 1
    record = []
    field = ''
    recordChars = 0
    started = false
  }
  const tooWide = () =>
    new WorkbookFileError(
      `Line ${rowNumber} of “${baseName(name)}” has more than 16,384 fields, more columns than a spreadsheet can have. Check the separator and the quotes, and try again.`,
    )
  const longLine = (hint: string) =>
    new WorkbookFileError(
      `Line ${rowNumber} of “${baseName(name)}” is longer than 16 million characters${hint}. Check the quotes and the separator, and try again.`,
    )
  const sep = () => separator!.charCodeAt(0)
  // Runs of ordinary characters are appended as one slice, never one character at a time.
  const parse = (text: string) => {
    const separatorCode = sep()
    for (let i = 0; i < text.length; i += 1) {
      if (afterCR) {
        afterCR = false
        if (text.charCodeAt(i) === 10) continue
      }
      if (quoted) {
        const quote = text.indexOf('"', i)
        const end = quote < 0 ? text.length : quote
        field += text.slice(i, end)
        recordChars += end - i
        if (recordChars > MAX_CSV_RECORD_CHARS) throw longLine('; a quote is probably never closed')
        if (quote < 0) return
        i = quote
        if (text.charCodeAt(i + 1) === 34) {
          field += '"'
          i += 1
        } else if (i + 1 === text.length) {
          // The next chunk decides whether this quote is doubled: look again then.
          pending = '"'
          return
        } else {
          quoted = false
          afterQuote = true
        }
        continue
      }
      const code = text.charCodeAt(i)
      if (code === 34 && field === '' && !afterQuote) {
        quoted = true
        started = true
      } else if (code === separatorCode) {
        record.push(field)
        if (record.length >= MAX_COLUMNS) throw tooWide()
        field = ''
        afterQuote = false
        started = true
      } else if (code === 10 || code === 13) {
        emit()
        afterQuote = false
        afterCR = code === 13
      } else {
        let end = i + 1
        while (end < text.length) {
          const c = text.charCodeAt(end)
          if (c === separatorCode || c === 10 || c === 13) break
          end += 1
        }
        field += text.slice(i, end)
        started = true
        recordChars += end - i
        if (recordChars > MAX_CSV_RECORD_CHARS) throw longLine('')
        i = end - 1
      }
    }
  }
  let head = ''
  let headDone = false
  const take = (text: string) => {
    if (text.includes('\0'))
      throw new WorkbookFileError(
        `“${baseName(name)}” holds binary data, not csv text. Save the workbook as .xlsx or .csv and try again.`,
      )
    if (!headDone) {
      // The first line decides the separator (and may be Excel's `sep=` line).
      head += text
      const lineEnd = head.search(/[\r\n]/)
      if (lineEnd < 0 && head.length < 64 * 1024) return
      headDone = true
      const firstLine = lineEnd < 0 ? head : head.slice(0, lineEnd)
      const sepLine = /^sep=(.)$/i.exec(firstLine)
      if (sepLine) {
        separator = sepLine[1]!
        separatorLine = true
        let rest = head.slice(lineEnd < 0 ? head.length : lineEnd + 1)
        if (head[lineEnd] === '\r' && rest[0] === '\n') rest = rest.slice(1)
        else if (head[lineEnd] === '\r' && rest === '') afterCR = true
        head = rest
      } else separator = guessSeparator(firstLine, tabbed)
      const all = head
      head = ''
      parse(all)
      return
    }
    if (pending) {
      text = pending + text
      pending = ''
    }
    parse(text)
  }
  try {
    for await (const chunk of bytes.chunks(encoding.bom, bytes.size)) {
      const text = decoder.decode(chunk, { stream: true })
      if (text) take(text)
    }
    const rest = decoder.decode()
    if (rest) take(rest)
  } catch (error) {
    if (error instanceof WorkbookFileError) throw error
    if (error instanceof TypeError)
      throw new WorkbookFileError(
        `“${baseName(name)}” is not valid ${encoding.name} text (its BOM says so, but some bytes are not). Export it again as CSV UTF-8 and try again.`,
      )
    throw error
  }
  if (!headDone) {
    headDone = true
    separator = guessSeparator(head, tabbed)
    const sepLine = /^sep=(.)$/i.exec(head)
    if (sepLine) {
      separator = sepLine[1]!
      separatorLine = true
      head = ''
    }
    parse(head)
  }
  if (pending) {
    quoted = false
    pending = ''
  }
  if (started || field !== '' || record.length > 0) emit()
  return { encoding: encoding.name, separator: separator ?? ',', separatorLine }
}

export function describeCsv(info: CsvInfo): string {
  const sep = info.separator === '\t' ? 'tab' : `“${info.separator}”`
  return `Read as ${info.encoding} text, fields separated by ${sep}${info.separatorLine ? ' (as its sep= line says)' : ''}.`
}
