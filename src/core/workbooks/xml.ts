/**
 * Just enough XML for spreadsheet parts, written for speed over a stream: finding elements by
 * tag with a cap on the size of one element, attributes in either quote, entities, CDATA, and
 * documents that put a prefix on every element (`<x:row>`), which are read as if they did not.
 */
import { formatBytes, MAX_ELEMENT_CHARS, RESAVE, WorkbookFileError } from './limits'

const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g
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
    CDATA.lastIndex = 0
    for (let m = CDATA.exec(text); m; m = CDATA.exec(text)) {
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

const attributePatterns = new Map<string, RegExp>()

/** An attribute's value (either quote, any prefix when `name` is `*:local`), decoded. */
export function attribute(tag: string, name: string): string | undefined {
  let pattern = attributePatterns.get(name)
  if (!pattern) {
    const local = name.startsWith('*:')
      ? `[\\w.-]+:${name.slice(2)}`
      : name.replace(/[.:-]/g, '\\$&')
    pattern = new RegExp(`\\s${local}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
    attributePatterns.set(name, pattern)
  }
  const match = pattern.exec(tag)
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
  inPlace(xml: string, start: number, headEnd: number): number
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
): Promise<void> {
  const each = typeof reader === 'function' ? reader : reader.whole
  const inPlace = typeof reader === 'function' ? null : reader.inPlace
  const open = `<${tag}`
  const close = `</${tag}>`
  let buffer = ''
  /** Where the current element starts, or -1 while looking for one. */
  let start = -1
  /** End of the current element's start tag, or -1 while not found yet. */
  let headEnd = -1
  /** Where to go on searching (nothing before it needs looking at again). */
  let at = 0
  /** The current element so far, while it spans chunks (from its start). */
  let pieces: string[] = []
  let piecesLength = 0
  const tooLong = () =>
    new WorkbookFileError(
      `${where} has a <${tag}> element longer than ${formatBytes(maxChars)} (or one that never ends). ${RESAVE}`,
    )
  for await (const chunk of chunks) {
    if (pieces.length > 0) {
      // Inside an element: look in the new chunk only (plus the few characters before it
      // that could start the end tag).
      const wanted = headEnd < 0 ? '>' : close
      const overlap = headEnd < 0 ? '' : pieces[pieces.length - 1]!.slice(-(close.length - 1))
      // The chunk itself, then only its start after the overlap (no copy of the whole chunk).
      if (
        chunk.indexOf(wanted) < 0 &&
        (overlap === '' || (overlap + chunk.slice(0, wanted.length - 1)).indexOf(wanted) < 0)
      ) {
        pieces.push(chunk)
        piecesLength += chunk.length
        if (piecesLength > maxChars) throw tooLong()
        continue
      }
      buffer = pieces.join('') + chunk
      at = piecesLength - overlap.length
      start = 0
      pieces = []
      piecesLength = 0
    } else buffer = buffer.length > 0 ? buffer + chunk : chunk
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
          each(buffer.slice(start, gt + 1))
          start = -1
          at = gt + 1
          continue
        }
        headEnd = gt
        at = gt + 1
      }
      if (inPlace) {
        const after = inPlace(buffer, start, headEnd)
        if (after >= 0) {
          start = -1
          headEnd = -1
          at = after
          continue
        }
      }
      const end = buffer.indexOf(close, at)
      if (end < 0) {
        at = Math.max(at, buffer.length - close.length)
        break
      }
      each(buffer.slice(start, end + close.length))
      start = -1
      headEnd = -1
      at = end + close.length
    }
    if (start >= 0) {
      // The element goes on in the next chunks: keep it as pieces from its start.
      const rest = buffer.slice(start)
      if (headEnd >= 0) headEnd -= start
      pieces = [rest]
      piecesLength = rest.length
      if (piecesLength > maxChars) throw tooLong()
      buffer = ''
      start = -1
      at = 0
    } else {
      buffer = buffer.slice(at)
      at = 0
    }
  }
}
