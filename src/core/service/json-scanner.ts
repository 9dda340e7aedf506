/**
 * An incremental JSON scanner: text is given a piece at a time, as it arrives, and the scanner
 * checks the grammar as it goes without building values. Its hooks choose which values they want
 * as text (a value at some depth, under some key of the outer object); everything else is read
 * past, however large, and never held. A wanted value is held only up to the limit its hook gave,
 * so one oversized item stops the reading at that item, not after it has been kept.
 *
 * Depth counts the containers around a value: the answer itself is at depth 0, the outer
 * object's values at depth 1, the items of a list there at depth 2. Strings are skipped by
 * searching for the next quote, so the long texts that make up most of a big
 * answer cost one native search per quote in them.
 */
import { stopStream } from './limits'

export interface ScanHooks {
  /**
   * A value starts at `depth`; `first` is its first character (`{`, `[`, `"`, or that of a
   * number or literal). Returns the most characters of it to hand to `value`, or 0 to read past
   * it (the scanner still descends into a container).
   */
  starts(depth: number, first: string): number
  /** The text of a value `starts` asked for, whole. */
  value(depth: number, text: string): void
  /** A key of the outer object, as JSON.parse reads it; its value follows. */
  key(name: string): void
  /** A value `starts` asked for ran past its limit: returns the error that stops the reading. */
  tooLarge(depth: number, limit: number): Error
}

/** The text is not JSON, or not all of it came. */
const notJson = () => stopStream({ kind: 'not-json' })

/** What may come next, outside a string or a number. */
const enum Next {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  CommaOrClose,
  Nothing,
}

/** The longest key of the outer object kept (keys deeper are read past). */
const MAX_KEY = 64 * 1024
/** The longest number or literal (true, false, null): anything longer is not JSON we read. */
const MAX_WORD = 512
const WORD = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/

function isWordChar(code: number): boolean {
  // digits, letters (true, false, null, e, E), '+', '-', '.'
  return (
    (code >= 48 && code <= 57) ||
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    code === 43 ||
    code === 45 ||
    code === 46
  )
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9
}

export class JsonScanner {
  /** The open containers: true for an object, false for a list. */
  private readonly open: boolean[] = []
  private next = Next.Value
  /** Inside a string, and whether the last piece ended on a backslash. */
  private inString = false
  private escaped = false
  /** Inside a number or literal: its characters so far. */
  private word: string | null = null
  /** The value (or outer key) being kept: its pieces, its length, its depth and limit. */
  private pieces: string[] | null = null
  private keptLength = 0
  private keptDepth = -1
  private keptLimit = 0
  private keepingKey = false
  /** Where the kept text starts in the current piece. */
  private keptFrom = 0

  constructor(private readonly hooks: ScanHooks) {}

  /** Scans the next piece of the text. */
  write(text: string): void {
    let i = 0
    const length = text.length
    this.keptFrom = 0
    while (i < length) {
      if (this.inString) i = this.skipString(text, i)
      else if (this.word !== null) i = this.skipWord(text, i)
      else i = this.structure(text, i)
    }
    if (this.pieces !== null) this.keep(text.slice(this.keptFrom))
  }

  /** The text has ended: throws unless it held one whole value. */
  end(): void {
    if (this.word !== null) {
      this.finishWord()
      this.keptFrom = 0
      this.valueEnds('', 0)
    }
    if (this.next !== Next.Nothing || this.inString) {
      throw notJson()
    }
  }

  private structure(text: string, i: number): number {
    const code = text.charCodeAt(i)
    if (isSpace(code)) return i + 1
    const char = text[i]!
    switch (char) {
      case '{':
      case '[':
        this.valueStarts(char, i)
        this.open.push(char === '{')
        this.next = char === '{' ? Next.KeyOrClose : Next.ValueOrClose
        return i + 1
      case '}':
      case ']':
        return this.close(char === '}', text, i)
      case ',':
        if (this.next !== Next.CommaOrClose) throw notJson()
        this.next = this.open[this.open.length - 1] ? Next.Key : Next.Value
        return i + 1
      case ':':
        if (this.next !== Next.Colon) throw notJson()
        this.next = Next.Value
        return i + 1
      case '"':
        if (this.next === Next.Key || this.next === Next.KeyOrClose) {
          if (this.open.length === 1 && this.pieces === null)
            this.startKeeping(MAX_KEY, -1, i, true)
          this.next = Next.Colon
        } else {
          this.valueStarts(char, i)
        }
        this.inString = true
        this.escaped = false
        return i + 1
      default:
        if (!isWordChar(code)) throw notJson()
        this.valueStarts(char, i)
        this.word = ''
        return i
    }
  }

  private valueStarts(first: string, i: number): void {
    if (this.next !== Next.Value && this.next !== Next.ValueOrClose) throw notJson()
    const depth = this.open.length
    if (this.pieces === null) {
      const limit = this.hooks.starts(depth, first)
      if (limit > 0) this.startKeeping(limit, depth, i, false)
    }
  }

  private close(object: boolean, text: string, i: number): number {
    const expected = object
      ? this.next === Next.KeyOrClose || this.next === Next.CommaOrClose
      : this.next === Next.ValueOrClose || this.next === Next.CommaOrClose
    if (!expected || this.open[this.open.length - 1] !== object) {
      throw notJson()
    }
    this.open.pop()
    this.valueEnds(text, i + 1)
    return i + 1
  }

  /** A value ended just before `end` in `text`: hands it on if it was kept. */
  private valueEnds(text: string, end: number): void {
    this.next = this.open.length === 0 ? Next.Nothing : Next.CommaOrClose
    if (this.pieces !== null && !this.keepingKey && this.keptDepth === this.open.length) {
      this.hooks.value(this.keptDepth, this.takeKept(text, end))
    }
  }

  private skipString(text: string, i: number): number {
    let from = i
    if (this.escaped) {
      this.escaped = false
      from += 1
    }
    for (;;) {
      const quote = text.indexOf('"', from)
      const end = quote === -1 ? text.length : quote
      // The backslashes just before the quote (or the piece's end): an odd run escapes it.
      let slashes = 0
      while (end - slashes > from && text.charCodeAt(end - slashes - 1) === 92) slashes += 1
      if (quote === -1) {
        this.escaped = slashes % 2 === 1
        return text.length
      }
      if (slashes % 2 === 1) {
        from = quote + 1
        continue
      }
      this.inString = false
      if (this.keepingKey) {
        this.hooks.key(parseKey(this.takeKept(text, quote + 1)))
      } else if (this.next !== Next.Colon) {
        this.valueEnds(text, quote + 1)
      }
      return quote + 1
    }
  }

  private skipWord(text: string, i: number): number {
    let at = i
    while (at < text.length && isWordChar(text.charCodeAt(at))) at += 1
    this.word += text.slice(i, at)
    if (this.word!.length > MAX_WORD) throw notJson()
    if (at < text.length) {
      this.finishWord()
      this.valueEnds(text, at)
    }
    return at
  }

  private finishWord(): void {
    const word = this.word!
    this.word = null
    if (!WORD.test(word)) throw notJson()
  }

  private startKeeping(limit: number, depth: number, i: number, key: boolean) {
    this.pieces = []
    this.keptLength = 0
    this.keptLimit = limit
    this.keptDepth = depth
    this.keepingKey = key
    this.keptFrom = i
  }

  private keep(piece: string): void {
    this.keptLength += piece.length
    if (this.keptLength > this.keptLimit) throw this.hooks.tooLarge(this.keptDepth, this.keptLimit)
    this.pieces!.push(piece)
  }

  private takeKept(text: string, end: number): string {
    this.keep(text.slice(this.keptFrom, end))
    const kept = this.pieces!.length === 1 ? this.pieces![0]! : this.pieces!.join('')
    this.pieces = null
    this.keepingKey = false
    return kept
  }
}

function parseKey(text: string): string {
  try {
    return JSON.parse(text) as string
  } catch {
    throw notJson()
  }
}
