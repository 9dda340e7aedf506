/**
 * The records of csv text, fed chunk by chunk as it is decoded: quotes follow RFC 4180, lines
 * end in CR, LF or CRLF, and the first line decides the separator (Excel's `sep=;` line, or the
 * most frequent of comma, semicolon and tab). Every limit is checked as the text comes.
 */
import { likelySeparator } from '../../../../shared/csv-separator'
import { baseName } from '../../byte-source'
import { MAX_COLUMNS, MAX_CSV_RECORD_CHARS, MAX_ROWS, WorkbookFileError } from '../../limits'
import type { RowSink } from '../../validate/read-result'

/** The state of one csv read: where it is in a record, a field, a quote. */
export class CsvParser {
  separator: string | null = null
  /** Whether the separator was said by a `sep=` first line. */
  separatorLine = false
  private field = ''
  private record: string[] = []
  private recordChars = 0
  private quoted = false
  private afterQuote = false
  private rowNumber = 1
  private started = false
  /** A CR ended the last record; an LF right after it belongs to it. */
  private afterCR = false
  /** A quote at the very end of a chunk: the next chunk says whether it is doubled. */
  private pending = ''
  /** The text before the first line's end (which decides the separator), while it comes. */
  private head = ''
  private headDone = false
  private readonly tabbed: boolean

  constructor(
    private readonly name: string,
    private readonly sink: RowSink,
  ) {
    this.tabbed = /\.(tsv|tab)$/i.test(name)
  }

  /** The next piece of decoded text. */
  take(text: string): void {
    if (text.includes('\0'))
      throw new WorkbookFileError(
        `“${baseName(this.name)}” holds binary data, not csv text. Save the workbook as .xlsx or .csv and try again.`,
      )
    if (!this.headDone) {
      // The first line decides the separator (and may be Excel's `sep=` line).
      this.head += text
      const lineEnd = this.head.search(/[\r\n]/)
      if (lineEnd < 0 && this.head.length < 64 * 1024) return
      this.headDone = true
      const head = this.head
      const firstLine = lineEnd < 0 ? head : head.slice(0, lineEnd)
      const sepLine = /^sep=(.)$/i.exec(firstLine)
      let rest = head
      if (sepLine) {
        this.separator = sepLine[1]!
        this.separatorLine = true
        rest = head.slice(lineEnd < 0 ? head.length : lineEnd + 1)
        if (head[lineEnd] === '\r' && rest[0] === '\n') rest = rest.slice(1)
        else if (head[lineEnd] === '\r' && rest === '') this.afterCR = true
      } else this.separator = this.tabbed ? '\t' : likelySeparator(firstLine)
      this.head = ''
      this.parse(rest)
      return
    }
    if (this.pending) {
      text = this.pending + text
      this.pending = ''
    }
    this.parse(text)
  }

  /** The end of the text: a first line never ended, and the last record. */
  end(): void {
    if (!this.headDone) {
      this.headDone = true
      this.separator = this.tabbed ? '\t' : likelySeparator(this.head)
      const sepLine = /^sep=(.)$/i.exec(this.head)
      if (sepLine) {
        this.separator = sepLine[1]!
        this.separatorLine = true
        this.head = ''
      }
      this.parse(this.head)
    }
    if (this.pending) {
      this.quoted = false
      this.pending = ''
    }
    if (this.started || this.field !== '' || this.record.length > 0) this.emit()
  }

  private emit() {
    this.record.push(this.field)
    if (this.rowNumber > MAX_ROWS)
      throw new WorkbookFileError(
        `“${baseName(this.name)}” has more than 1,048,576 lines, more than a spreadsheet can hold. Split it into smaller files and try again.`,
      )
    this.sink.row(
      this.record.map((c) => (c === '' ? null : c)),
      this.rowNumber,
    )
    this.rowNumber += 1
    this.record = []
    this.field = ''
    this.recordChars = 0
    this.started = false
  }

  private tooWide() {
    return new WorkbookFileError(
      `Line ${this.rowNumber} of “${baseName(this.name)}” has more than 16,384 fields, more columns than a spreadsheet can have. Check the separator and the quotes, and try again.`,
    )
  }

  private longLine(hint: string) {
    return new WorkbookFileError(
      `Line ${this.rowNumber} of “${baseName(this.name)}” is longer than 16 million characters${hint}. Check the quotes and the separator, and try again.`,
    )
  }

  /**
   * Inside a quoted field from `i`: the text up to the next quote; answers where to go on from
   * (text.length: the chunk is used up).
   */
  private quotedText(text: string, i: number): number {
    const quote = text.indexOf('"', i)
    const end = quote < 0 ? text.length : quote
    this.field += text.slice(i, end)
    this.recordChars += end - i
    if (this.recordChars > MAX_CSV_RECORD_CHARS)
      throw this.longLine('; a quote is probably never closed')
    if (quote < 0) return text.length
    if (text.charCodeAt(quote + 1) === 34) {
      this.field += '"'
      return quote + 2
    }
    if (quote + 1 === text.length) {
      // The next chunk decides whether this quote is doubled: look again then.
      this.pending = '"'
      return text.length
    }
    this.quoted = false
    this.afterQuote = true
    return quote + 1
  }

  // Runs of ordinary characters are appended as one slice, never one character at a time.
  private parse(text: string) {
    const separatorCode = this.separator!.charCodeAt(0)
    for (let i = 0; i < text.length; i += 1) {
      if (this.afterCR) {
        this.afterCR = false
        if (text.charCodeAt(i) === 10) continue
      }
      if (this.quoted) {
        i = this.quotedText(text, i) - 1
        continue
      }
      const code = text.charCodeAt(i)
      if (code === 34 && this.field === '' && !this.afterQuote) {
        this.quoted = true
        this.started = true
      } else if (code === separatorCode) {
        this.record.push(this.field)
        if (this.record.length >= MAX_COLUMNS) throw this.tooWide()
        this.field = ''
        this.afterQuote = false
        this.started = true
      } else if (code === 10 || code === 13) {
        this.emit()
        this.afterQuote = false
        this.afterCR = code === 13
      } else {
        let end = i + 1
        while (end < text.length) {
          const c = text.charCodeAt(end)
          if (c === separatorCode || c === 10 || c === 13) break
          end += 1
        }
        this.field += text.slice(i, end)
        this.started = true
        this.recordChars += end - i
        if (this.recordChars > MAX_CSV_RECORD_CHARS) throw this.longLine('')
        i = end - 1
      }
    }
  }
}
