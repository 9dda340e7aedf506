/**
 * Just enough XML for spreadsheet parts, written for speed over a stream: finding elements by
 * tag with a cap on the size of one element, attributes in either quote, entities, CDATA, and
 * documents that put a prefix on every element (`<x:row>`), which are read as if they did not.
 */
import { formatBytes } from '../../../../shared/format/bytes'
import { MAX_ELEMENT_CHARS, RESAVE, WorkbookFileError } from '../../limits'

const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function entities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole
    }
    return ENTITIES[name] ?? whole
  })
}

/** The text of an element's content: entities, CDATA sections and Excel's `_xHHHH_` escapes. */
export function decodeXmlText(text: string): string {
  let out: string
  if (text.includes('<![CDATA[')) {
    out = ''
    let last = 0
    for (const m of text.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)) {
      out += entities(text.slice(last, m.index)) + m[1]!
      last = m.index + m[0].length
    }
    out += entities(text.slice(last))
  } else out = entities(text)
  // Excel escapes characters XML cannot hold as _xHHHH_.
  if (out.includes('_x'))
    out = out.replace(EXCEL_ESCAPE, (_w, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return out
}

function attributePattern(name: string): RegExp {
  const local = name.startsWith('*:') ? `[\\w.-]+:${name.slice(2)}` : name.replace(/[.:-]/g, '\\$&')
  return new RegExp(`\\s${local}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
}

/**
 * The patterns of the attributes the readers ask for, made once; built when asked for any other.
 * Never changed after it is made.
 */
const ATTRIBUTE_PATTERNS: ReadonlyMap<string, RegExp> = new Map(
  [
    'Id',
    'Target',
    'TargetMode',
    'Type',
    '*:id',
    'id',
    'name',
    'state',
    'date1904',
    'numFmtId',
    'formatCode',
    'ref',
  ].map((name) => [name, attributePattern(name)]),
)

/** An attribute's value (either quote, any prefix when `name` is `*:local`), decoded. */
export function attribute(tag: string, name: string): string | undefined {
  const match = (ATTRIBUTE_PATTERNS.get(name) ?? attributePattern(name)).exec(tag)
  if (!match) return undefined
  return entities(match[1] ?? match[2] ?? '')
}

/** The tags of every `<name ...>` start tag in a (small) document. */
export function startTags(xml: string, name: string): string[] {
  const pattern = new RegExp(`<${name}(?=[\\s/>])[^>]*>`, 'g')
  return xml.match(pattern) ?? []
}

const ROOT_PREFIX = /<([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*[\s>]/
const PREFIX = /<(\/?)[A-Za-z_][\w.-]*:/g

/** The prefix the document's root element uses (`x` for `<x:worksheet>`), or null. */
export function rootPrefix(head: string): string | null {
  const at = head.search(/<[A-Za-z_]/)
  if (at < 0) return null
  const match = ROOT_PREFIX.exec(head.slice(at, at + 200))
  return match && match.index === 0 ? match[1]! : null
}

/** A small document with element prefixes removed (when its root has one). */
export function unprefixedText(xml: string): string {
  return rootPrefix(xml) ? xml.replace(PREFIX, '<$1') : xml
}

/** The same chunks with element prefixes removed when the root element has one. */
export async function* unprefixed(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let prefixed: boolean | null = null
  let carry = ''
  for await (const chunk of chunks) {
    if (prefixed === null) {
      carry += chunk
      if (carry.length < 512 && !/<[A-Za-z_][^>]*>/.test(carry.replace(/<[?!][^>]*>/g, '')))
        continue
      prefixed = rootPrefix(carry.replace(/<[?!][^>]*>/g, '')) !== null
      if (!prefixed) {
        yield carry
        carry = ''
        continue
      }
    } else if (!prefixed) {
      yield chunk
      continue
    } else carry += chunk
    // Hold back a tag cut in two at the end of the chunk.
    const lastOpen = carry.lastIndexOf('<')
    const cut = lastOpen >= 0 && carry.indexOf('>', lastOpen) < 0 ? lastOpen : carry.length
    yield carry.slice(0, cut).replace(PREFIX, '<$1')
    carry = carry.slice(cut)
  }
  if (carry) yield prefixed ? carry.replace(PREFIX, '<$1') : carry
}

function endsName(code: number): boolean {
  // space, tab, newline, carriage return, '>' or '/'
  return code === 32 || code === 62 || code === 47 || code === 9 || code === 10 || code === 13
}

/**
 * Reads elements where they lie in the text, without a copy of each: for a sheet's rows and
 * shared strings, which come by the hundred thousand.
 */
export interface ElementReader {
  /**
   * The element that starts at `start` in `xml`, whose start tag ends at `headEnd` (its `>`):
   * read it and answer the index just past its end tag (exactly where the first end tag of its
   * name after `headEnd` ends), or answer -1, having changed nothing, to have it given to
   * `whole` instead (a shape it does not read, or an element not all in `xml` yet).
   */
  inPlace?(xml: string, start: number, headEnd: number): number
  /** An element `inPlace` left (or an empty `<tag/>`), as one string. */
  whole(element: string): void
}

/**
 * Calls `each` with every complete `<tag ...>...</tag>` (or `<tag/>`) in a stream of XML
 * chunks, or reads them in place (see ElementReader). One element longer than `maxChars` (a
 * `<row>` that never closes) is a file error. An element spread over many chunks is kept as a
 * list of pieces and only the newest chunk is searched, so a huge element costs time in
 * proportion to its size, not to its size squared.
 */
export async function eachElement(
  chunks: AsyncIterable<string>,
  tag: string,
  reader: ((element: string) => void) | ElementReader,
  where: string,
  maxChars = MAX_ELEMENT_CHARS,
  /** Asked after each chunk: true ends the read there (the rest of the part is never inflated). */
  enough: () => boolean = () => false,
): Promise<void> {
  const scanner = new ElementScanner(
    tag,
    typeof reader === 'function' ? { whole: reader } : reader,
    where,
    maxChars,
  )
  for await (const chunk of chunks) {
    scanner.push(chunk)
    if (enough()) break
  }
}

/** The state of one eachElement: where it is in the text, and the element it is inside. */
class ElementScanner {
  private readonly open: string
  private readonly close: string
  private buffer = ''
  /** Where the current element starts, or -1 while looking for one. */
  private start = -1
  /** End of the current element's start tag, or -1 while not found yet. */
  private headEnd = -1
  /** Where to go on searching (nothing before it needs looking at again). */
  private at = 0
  /** The current element so far, while it spans chunks (from its start). */
  private pieces: string[] = []
  private piecesLength = 0

  constructor(
    private readonly tag: string,
    private readonly reader: ElementReader,
    private readonly where: string,
    private readonly maxChars: number,
  ) {
    this.open = `<${tag}`
    this.close = `</${tag}>`
  }

  private tooLong() {
    return new WorkbookFileError(
      `${this.where} has a <${this.tag}> element longer than ${formatBytes(this.maxChars)} (or one that never ends). ${RESAVE}`,
    )
  }

  push(chunk: string): void {
    if (this.pieces.length > 0 && !this.endsIn(chunk)) return
    const cut = this.buffer.length > 0 ? this.firstEnd(chunk) : -1
    if (cut > 0) {
      // Only the chunk's text up to its first end tag is joined to what was kept: the element
      // cut in two by the chunk's start ends there (elements of one name do not nest). The rest
      // of the chunk is scanned where it lies, not copied with it into a new text (a sheet is
      // tens of MB, cut at every chunk).
      this.buffer += chunk.slice(0, cut)
      this.scan()
      if (this.start < 0 && this.at === this.buffer.length) {
        this.buffer = chunk
        this.at = cut
      } else this.buffer += chunk.slice(cut)
    } else this.buffer = this.buffer.length > 0 ? this.buffer + chunk : chunk
    this.scan()
    if (this.start >= 0) {
      // The element goes on in the next chunks: keep it as pieces from its start.
      const rest = this.buffer.slice(this.start)
      if (this.headEnd >= 0) this.headEnd -= this.start
      this.pieces = [rest]
      this.piecesLength = rest.length
      if (this.piecesLength > this.maxChars) throw this.tooLong()
      this.buffer = ''
      this.start = -1
      this.at = 0
    } else {
      this.buffer = this.buffer.slice(this.at)
      this.at = 0
    }
  }

  /**
   * Where in `chunk` the first end tag ends, counting one begun at the end of the buffer; -1
   * when none ends in it.
   */
  private firstEnd(chunk: string): number {
    const close = this.close
    const before = Math.min(close.length - 1, this.buffer.length)
    const edge = this.buffer.slice(this.buffer.length - before) + chunk.slice(0, close.length - 1)
    const across = edge.indexOf(close)
    if (across >= 0) return across + close.length - before
    const end = chunk.indexOf(close)
    return end < 0 ? -1 : end + close.length
  }

  /**
   * Inside an element that spans chunks: whether this chunk holds what it waits for (the end of
   * its start tag, or its end tag). If not, the chunk is kept as one more piece; if so, the
   * pieces become the buffer, which push joins with the chunk and scans.
   */
  private endsIn(chunk: string): boolean {
    // Only the new chunk is searched (plus the few characters before it that could start the
    // end tag), and its start after the overlap: no copy of the whole chunk.
    const wanted = this.headEnd < 0 ? '>' : this.close
    const last = this.pieces[this.pieces.length - 1]!
    const overlap = this.headEnd < 0 ? '' : last.slice(-(this.close.length - 1))
    if (
      chunk.indexOf(wanted) < 0 &&
      (overlap === '' || (overlap + chunk.slice(0, wanted.length - 1)).indexOf(wanted) < 0)
    ) {
      this.pieces.push(chunk)
      this.piecesLength += chunk.length
      if (this.piecesLength > this.maxChars) throw this.tooLong()
      return false
    }
    this.buffer = this.pieces.join('')
    this.at = this.piecesLength - overlap.length
    this.start = 0
    this.pieces = []
    this.piecesLength = 0
    return true
  }

  /** Every element that ends in the buffer, read; leaves `start` at one that goes on, if any. */
  private scan(): void {
    const { buffer, open, close, reader } = this
    let { start, headEnd, at } = this
    for (;;) {
      if (start < 0) {
        const found = buffer.indexOf(open, at)
        if (found < 0) {
          at = Math.max(at, buffer.length - open.length)
          break
        }
        if (found + open.length >= buffer.length) {
          at = found
          break
        }
        if (!endsName(buffer.charCodeAt(found + open.length))) {
          at = found + open.length
          continue
        }
        start = found
        at = found + open.length
      }
      if (headEnd < 0) {
        const gt = buffer.indexOf('>', at)
        if (gt < 0) {
          at = buffer.length
          break
        }
        if (buffer.charCodeAt(gt - 1) === 47) {
          reader.whole(buffer.slice(start, gt + 1))
          start = -1
          at = gt + 1
          continue
        }
        headEnd = gt
        at = gt + 1
      }
      const after = reader.inPlace ? reader.inPlace(buffer, start, headEnd) : -1
      if (after < 0) {
        const end = buffer.indexOf(close, at)
        if (end < 0) {
          at = Math.max(at, buffer.length - close.length)
          break
        }
        reader.whole(buffer.slice(start, end + close.length))
        at = end + close.length
      } else at = after
      start = -1
      headEnd = -1
    }
    this.start = start
    this.headEnd = headEnd
    this.at = at
  }
}
