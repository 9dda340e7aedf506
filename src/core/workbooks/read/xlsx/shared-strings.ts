/**
 * The shared strings of a workbook (most text cells hold only an index into them), read from
 * their part as it streams, and the text of a string's runs (rich text, phonetic guides).
 */
import { MAX_SHARED_STRINGS_BYTES } from '../../limits'
import { keptTextChunks } from './part-text'
import { StringsFile } from './strings-file'
import { decodeXmlText, eachElement, unprefixed } from './xml'
import type { Zip, ZipEntry } from './zip'

const TEXT_RUN = /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g
const PHONETIC = /<rPh\b[\s\S]*?<\/rPh>/g

/** The text of a shared string or inline string: its <t> runs, without phonetic guides. */
export function runsText(xml: string): string {
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
  for (const m of body.matchAll(TEXT_RUN)) if (m[1] !== undefined) out += m[1]
  return decodeXmlText(out)
}

/** How many strings SharedStrings keeps at hand (a power of two). */
const RECENT = 256

/**
 * How much of the part's text (in characters) is kept in memory; the strings after it go to a
 * file (strings-file.ts). Most workbooks' shared strings fit many times over.
 */
export const KEPT_STRINGS_CHARS = 16 * 1024 * 1024

/** Where a string lies: in `kept`, in the file, or in the file and all ASCII. */
const KEPT = -1
const IN_FILE = -2
const IN_FILE_ASCII = -3

/**
 * The shared strings of a workbook, by index. A plain string (no entity or escape to decode) is
 * kept as where it lies in the part's text, which is kept whole, and is cut out when a cell asks
 * for it: hundreds of thousands of strings kept as objects of their own would be copied and
 * marked by every garbage collection while the part is read, and cut out of that same text
 * anyway. Other strings are kept as they are. Past a budget of characters kept, strings go to
 * a file instead (strings-file.ts), so a part of hundreds of MB costs no more memory than the
 * budget; `close()` lets that file go.
 */
export class SharedStrings {
  /** The texts the strings lie in (each chunk of the part that holds one). */
  private readonly texts: string[] = []
  /**
   * Three numbers a string: its text (KEPT: in `kept`; IN_FILE or IN_FILE_ASCII: in the file,
   * then its first byte and its length in bytes), and where it starts and ends. A
   * typed array, doubled when full: no object for the collector to visit, and at most three
   * numbers for every 16 characters of the part, whose size is capped before it is read.
   */
  private spans = new Int32Array(3 * 1024)
  private count = 0
  private readonly kept: string[] = []
  /** Characters held in `texts` and `kept`; past the budget, strings go to `file`. */
  private keptChars = 0
  private file: StringsFile | null = null

  constructor(private readonly budget = KEPT_STRINGS_CHARS) {}

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
    if (this.keptChars + text.length > this.budget) return this.toFile(text)
    this.keptChars += text.length
    this.push(KEPT, this.kept.length, 0)
    this.kept.push(text)
  }

  private toFile(text: string): void {
    this.file ??= new StringsFile()
    const [at, length] = this.file.add(text)
    this.push(IN_FILE, at, length)
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
    if (text < 0 || this.texts[text] !== xml) {
      if (this.keptChars + xml.length > this.budget) return this.spanToFile(xml, from, to)
      this.keptChars += xml.length
      text = this.texts.push(xml) - 1
    }
    this.push(text, from, to)
  }

  /** The part's text last given to the file, and where it starts there (-1: not written whole). */
  private filedText = ''
  private filedAt = -1

  /**
   * A plain string past the budget. A text of the part that is all ASCII (a character a byte) is
   * written to the file whole, once, and each string in it is where it lies there: one write a
   * text, where one a string cost a tenth of a read of the bench sheet. Other texts give the
   * file their strings one by one.
   */
  private spanToFile(xml: string, from: number, to: number): void {
    if (xml !== this.filedText) {
      this.filedText = xml
      this.file ??= new StringsFile()
      this.filedAt = Buffer.byteLength(xml, 'utf8') === xml.length ? this.file.add(xml)[0] : -1
    }
    if (this.filedAt < 0) return this.toFile(xml.slice(from, to))
    this.push(IN_FILE_ASCII, this.filedAt + from, to - from)
  }

  /** Every string added can be read from now on. */
  finish(): void {
    this.file?.flush()
    this.filedText = ''
  }

  /** Lets the file of strings past the budget go (the list cannot be read after). */
  close(): void {
    this.file?.close()
  }

  /**
   * The strings last cut out, by their index modulo RECENT: a value that comes back down a
   * column (yes, no, a status, a choice) is one string, cut once, not a new copy per cell whose
   * hash each check computes afresh. A few hundred strings at most, never the whole list.
   */
  private readonly recent: string[] = new Array<string>(RECENT).fill('')
  private readonly recentIndex = new Int32Array(RECENT).fill(-1)

  /** The string at an index; '' for none (a cell pointing past the list). */
  at(index: number): string {
    if (!(index >= 0 && index < this.count) || !Number.isInteger(index)) return ''
    const slot = index & (RECENT - 1)
    if (this.recentIndex[slot] === index) return this.recent[slot]!
    const i = index * 3
    const text = this.spans[i]!
    const string =
      text === KEPT
        ? this.kept[this.spans[i + 1]!]!
        : text === IN_FILE_ASCII
          ? this.file!.readAscii(this.spans[i + 1]!, this.spans[i + 2]!)
          : text === IN_FILE
            ? this.file!.read(this.spans[i + 1]!, this.spans[i + 2]!)
            : this.texts[text]!.slice(this.spans[i + 1], this.spans[i + 2])
    this.recentIndex[slot] = index
    this.recent[slot] = string
    return string
  }
}

/**
 * Whether `</t></si>` is at `at` (at is -1 when nothing was found), by character code: `</t>`,
 * then closesString. Written out, not a loop over the tags' text: this runs half a million times.
 */
function closesTextAndString(xml: string, at: number): boolean {
  if (at < 0 || xml.charCodeAt(at + 1) !== 47 || xml.charCodeAt(at + 2) !== 116) return false
  return xml.charCodeAt(at + 3) === 62 && closesString(xml, at + 4)
}

/** Whether `</si>` is at `at`. */
function closesString(xml: string, at: number): boolean {
  if (xml.charCodeAt(at) !== 60 || xml.charCodeAt(at + 1) !== 47) return false
  return (
    xml.charCodeAt(at + 2) === 115 &&
    xml.charCodeAt(at + 3) === 105 &&
    xml.charCodeAt(at + 4) === 62
  )
}

/** Reads a workbook's shared strings part (none: an empty list). */
export async function readSharedStrings(
  zip: Zip,
  entry: ZipEntry | undefined,
  budget = KEPT_STRINGS_CHARS,
): Promise<SharedStrings> {
  const list = new SharedStrings(budget)
  if (!entry) return list
  await eachElement(
    unprefixed(keptTextChunks(zip.inflate(entry, MAX_SHARED_STRINGS_BYTES))),
    'si',
    {
      // The usual string, <si><t>text</t></si> (or <t xml:space="preserve">), read where it
      // lies; any other shape goes to runsText on the element's copy.
      // Tags are compared by character code: half a million strings, each a call of
      // startsWith less.
      inPlace(xml, start, headEnd) {
        const t = headEnd + 1
        if (headEnd !== start + 3 || xml.charCodeAt(t) !== 60 || xml.charCodeAt(t + 1) !== 116)
          return -1
        const name = xml.charCodeAt(t + 2)
        if (name !== 62 && name !== 32) return -1
        const gt = name === 62 ? t + 2 : xml.indexOf('>', t)
        // A <t/>, or the string's end tag inside a broken <t ...>: left to runsText.
        if (
          gt < 0 ||
          (name === 32 && (xml.charCodeAt(gt - 1) === 47 || xml.startsWith('</si>', gt - 4)))
        )
          return -1
        const lt = xml.indexOf('<', gt)
        if (!closesTextAndString(xml, lt)) return -1
        list.addSpan(xml, gt + 1, lt)
        return lt + 9
      },
      whole: (si) => list.add(runsText(si)),
    },
    'The shared strings of the workbook',
  ).catch((error: unknown) => {
    list.close()
    throw error
  })
  list.finish()
  return list
}
