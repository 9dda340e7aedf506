/**
 * Comma-, semicolon- or tab-separated text as rows of cells, record by record, without holding
 * the decoded file. The encoding: a BOM says UTF-8 or UTF-16; otherwise UTF-16 when every other
 * byte is zero, UTF-8 when all of it is valid UTF-8, and Windows-1252 (Excel's plain "CSV")
 * when not. The separator: a first line `sep=;` (as Excel writes it), else the most frequent of
 * comma, semicolon and tab in the first line. Quotes follow RFC 4180; a line ends in LF, CR or
 * CRLF; an empty field is an empty cell.
 */
import { likelySeparator } from '../../shared/csv-separator'
import type { CellValue } from '../../shared/input-schema'
import {
  fileNameOf,
  MAX_COLUMNS,
  MAX_CSV_RECORD_CHARS,
  MAX_ROWS,
  WorkbookProblem,
} from './file-problem'
import type { RowSink } from './row-checker'

interface TextEncoding {
  label: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'
  /** Bytes of the BOM to skip. */
  skip: number
  /** As a user would name it. */
  name: string
}

function encodingOf(bytes: Uint8Array): TextEncoding {
  const [a, b, c] = bytes
  if (a === 0xef && b === 0xbb && c === 0xbf) return { label: 'utf-8', skip: 3, name: 'UTF-8' }
  if (a === 0xff && b === 0xfe) return { label: 'utf-16le', skip: 2, name: 'UTF-16' }
  if (a === 0xfe && b === 0xff) return { label: 'utf-16be', skip: 2, name: 'UTF-16' }
  const head = bytes.subarray(0, 4096)
  const pairs = Math.floor(head.length / 2)
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenZeros += 1
    if (head[i + 1] === 0) oddZeros += 1
  }
  if (pairs >= 2 && evenZeros === 0 && oddZeros > pairs * 0.4)
    return { label: 'utf-16le', skip: 0, name: 'UTF-16' }
  if (pairs >= 2 && oddZeros === 0 && evenZeros > pairs * 0.4)
    return { label: 'utf-16be', skip: 0, name: 'UTF-16' }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return { label: 'utf-8', skip: 0, name: 'UTF-8' }
  } catch {
    return { label: 'windows-1252', skip: 0, name: 'Windows-1252' }
  }
}

const QUOTE = 34
const LF = 10
const CR = 13

/** Splits decoded text into records as it arrives; a quote may span chunks and lines. */
class RecordSplitter {
  private separator = -1
  /** Text before the separator is known (the first line decides it). */
  private head = ''
  private field = ''
  private record: string[] = []
  private recordChars = 0
  private quoted = false
  /** A quote seen inside a quoted field: doubled ("") or the field's end, the next char says. */
  private quoteInQuoted = false
  /** The field's closing quote was seen: a quote now is text, not an opening one. */
  private afterQuote = false
  private afterCR = false
  private started = false
  private rowNumber = 1

  constructor(
    private readonly fileName: string,
    private readonly tabbed: boolean,
    private readonly sink: RowSink,
  ) {}

  push(text: string): void {
    if (text.includes('\0'))
      throw new WorkbookProblem(
        `“${this.fileName}” holds binary data, not csv text. Save the workbook as .xlsx or .csv and try again.`,
      )
    if (this.separator < 0) {
      this.head += text
      if (!/[\r\n]/.test(this.head) && this.head.length < 64 * 1024) return
      text = this.takeSeparator()
    }
    this.split(text)
  }

  end(): void {
    if (this.separator < 0) this.split(this.takeSeparator())
    if (this.started || this.field !== '' || this.record.length > 0) this.endRecord()
  }

  /** Decides the separator from the first line; answers the text left to split. */
  private takeSeparator(): string {
    const lineEnd = this.head.search(/[\r\n]|$/)
    const firstLine = this.head.slice(0, lineEnd)
    const named = /^sep=(.)$/i.exec(firstLine)
    const text = this.head
    this.head = ''
    if (!named) {
      this.separator = (this.tabbed ? '\t' : likelySeparator(firstLine)).charCodeAt(0)
      return text
    }
    this.separator = named[1]!.charCodeAt(0)
    const rest = text.slice(lineEnd + 1)
    if (text[lineEnd] !== '\r') return rest
    if (rest === '') this.afterCR = true
    return rest.startsWith('\n') ? rest.slice(1) : rest
  }

  private split(text: string): void {
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i)
      if (this.afterCR) {
        this.afterCR = false
        if (code === LF) continue
      }
      if (this.quoteInQuoted) {
        this.quoteInQuoted = false
        if (code === QUOTE) {
          this.append('"')
          continue
        }
        this.quoted = false
        this.afterQuote = true
      }
      if (this.quoted) {
        const quote = text.indexOf('"', i)
        const end = quote < 0 ? text.length : quote
        this.append(text.slice(i, end))
        if (quote < 0) return
        this.quoteInQuoted = true
        i = quote
      } else if (code === QUOTE && this.field === '' && !this.afterQuote) {
        this.quoted = true
        this.started = true
      } else if (code === this.separator) {
        this.endField()
      } else if (code === LF || code === CR) {
        this.endRecord()
        this.afterCR = code === CR
      } else {
        let end = i + 1
        while (end < text.length) {
          const next = text.charCodeAt(end)
          if (next === this.separator || next === LF || next === CR) break
          end += 1
        }
        this.append(text.slice(i, end))
        this.started = true
        i = end - 1
      }
    }
  }

  private append(part: string) {
    this.field += part
    this.recordChars += part.length
    if (this.recordChars > MAX_CSV_RECORD_CHARS)
      throw new WorkbookProblem(
        `Line ${this.rowNumber} of “${this.fileName}” is longer than 16 million characters${this.quoted ? '; a quote is probably never closed' : ''}. Check the quotes and the separator, and try again.`,
      )
  }

  private endField() {
    this.record.push(this.field)
    this.field = ''
    this.afterQuote = false
    // A record with a separator has started, even when its fields stay empty.
    this.started = true
    if (this.record.length >= MAX_COLUMNS)
      throw new WorkbookProblem(
        `Line ${this.rowNumber} of “${this.fileName}” has more than 16,384 fields, more columns than a spreadsheet can have. Check the separator and the quotes, and try again.`,
      )
  }

  private endRecord() {
    this.record.push(this.field)
    if (this.rowNumber > MAX_ROWS)
      throw new WorkbookProblem(
        `“${this.fileName}” has more than 1,048,576 lines, more than a spreadsheet can hold. Split it into smaller files and try again.`,
      )
    const cells: CellValue[] = this.record.map((cell) => (cell === '' ? null : cell))
    this.sink.row(cells, this.rowNumber)
    this.rowNumber += 1
    this.record = []
    this.field = ''
    this.recordChars = 0
    this.afterQuote = false
    this.started = false
  }
}

export function readCsv(bytes: Uint8Array, fileName: string, sink: RowSink): void {
  const name = fileNameOf(fileName)
  const encoding = encodingOf(bytes)
  // fatal: bytes that are no text in this encoding are an error, never a silent U+FFFD.
  const decoder = new TextDecoder(encoding.label, { fatal: true, ignoreBOM: true })
  const splitter = new RecordSplitter(name, /\.(tsv|tab)$/i.test(fileName), sink)
  const chunkBytes = 1024 * 1024
  try {
    for (let at = encoding.skip; at < bytes.length; at += chunkBytes) {
      const text = decoder.decode(bytes.subarray(at, at + chunkBytes), { stream: true })
      if (text) splitter.push(text)
    }
    const rest = decoder.decode()
    if (rest) splitter.push(rest)
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    throw new WorkbookProblem(
      `“${name}” is not valid ${encoding.name} text (its first bytes say it is, but some bytes are not). Export it again as CSV UTF-8 and try again.`,
    )
  }
  splitter.end()
}
