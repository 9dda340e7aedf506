/**
 * The cells of a sheet's XML, read by character code: a sheet of 100,000 rows has a million
 * cells, so nothing here makes an object or a string per cell unless the cell's value is one.
 *
 * What a scan finds (a cell's column, its type and style, where its value lies) is kept in the
 * fields of a CellScanner, one per read of a sheet, rather than returned in a fresh object per
 * cell. Two reads never share a scanner, so reads may interleave freely.
 */
import type { CellValue } from '../../../../shared/input-schema'
import { MAX_COLUMNS } from '../../limits'
import { isoCellValue, serialValue } from './dates'
import type { SharedStrings } from './shared-strings'
import type { Shown } from './styles'
import { decodeXmlText } from './xml'

export function endsName(code: number): boolean {
  // space, tab, newline, carriage return, '>' or '/'
  return code === 32 || code === 62 || code === 47 || code === 9 || code === 10 || code === 13
}

/** Whether an attribute's name may start after this character: a space, or a quote. */
function opensAttribute(code: number): boolean {
  return code <= 32 || code === 34 || code === 39
}

/** 10^0 to 10^15, each an exact double. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i)

/** Whether `</v></c>` is at `at` (at is -1 when nothing was found). */
export function closesValueAndCell(xml: string, at: number): boolean {
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

/** A row's r attribute (digits between `from` and `to`): its number, or -1. */
function rowNumberAt(xml: string, from: number, to: number): number {
  let n = 0
  let digits = 0
  for (let k = from; k < to; k += 1) {
    const d = xml.charCodeAt(k) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
    digits += 1
    if (digits > 9) break
  }
  return digits > 0 ? n : -1
}

/** A cell's r attribute (its letters, a leading $ allowed): its column (0-based), or -1. */
function columnAt(xml: string, from: number, to: number): number {
  let k = from
  if (xml.charCodeAt(k) === 36) k += 1
  let n = 0
  for (; k < to; k += 1) {
    const c = xml.charCodeAt(k) & ~32
    if (c < 65 || c > 90) break
    n = n * 26 + (c - 64)
    // Past XFD: the caller reports it (the letters after cannot bring it back).
    if (n > MAX_COLUMNS) break
  }
  return n - 1
}

/** A cell's s attribute (its style index), or -1. */
function styleAt(xml: string, from: number, to: number): number {
  let n = 0
  let k = from
  for (; k < to; k += 1) {
    const d = xml.charCodeAt(k) - 48
    if (d < 0 || d > 9 || n > 1e9) break
    n = n * 10 + d
  }
  return k === to && to > from ? n : -1
}

/**
 * The index of a shared string, from its digits (spaces around allowed); -1 when the value is
 * empty (`<v/>`, `<v></v>`), which is a blank cell, not the first string.
 */
function sharedIndex(xml: string, from: number, to: number): number {
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
  if (digits === 0) return -1
  return digits > 0 && digits < 16 ? n : Number(xml.slice(from, to))
}

/** Reads the cells of one sheet: their attributes, where their values lie, and the values. */
export class CellScanner {
  /** What the last scanAttributes found: the cell's column (-1: no r attribute). */
  column = -1
  /** Where the t attribute's value starts and ends (-1: no t attribute). */
  typeFrom = -1
  typeTo = -1
  /** The s attribute (style index), or -1. */
  style = -1
  /** The r attribute of a <row>: its number, or -1. */
  rowNumber = -1
  /** Where the text of the cell's <v> starts and ends (see findValue). */
  valueFrom = 0
  valueTo = 0
  /** The number wholeNumber read. */
  number = 0

  constructor(
    private readonly strings: SharedStrings,
    /** How each cell style shows numbers (by its index). */
    private readonly kinds: Shown[],
    private readonly date1904: boolean,
  ) {}

  /**
   * The r, t and s attributes of a start tag between `from` and `to` (either quote). For a cell,
   * r gives the column; for a row (`row` true), r is the row number.
   */
  scanAttributes(xml: string, from: number, to: number, row: boolean): void {
    this.column = -1
    this.typeFrom = -1
    this.typeTo = -1
    this.style = -1
    this.rowNumber = -1
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
        if (name === 114 && row) this.rowNumber = rowNumberAt(xml, q + 1, end)
        else if (name === 114) this.column = columnAt(xml, q + 1, end)
        else if (name === 116) {
          this.typeFrom = q + 1
          this.typeTo = end
        } else if (name === 115) this.style = styleAt(xml, q + 1, end)
      }
      i = end + 1
    }
  }

  /**
   * A cell's start tag between `from` and `to`, as scanAttributes(xml, from, to, false) reads
   * it. The shape spreadsheet programs write, ` r="B7"`, then ` s="3"`, then ` t="s"`, each
   * but the first left out or not, is read in one pass with no search; any other goes to
   * scanAttributes.
   */
  scanCell(xml: string, from: number, to: number): void {
    if (
      xml.charCodeAt(from) !== 32 ||
      xml.charCodeAt(from + 1) !== 114 ||
      xml.charCodeAt(from + 2) !== 61 ||
      xml.charCodeAt(from + 3) !== 34
    )
      return this.scanAttributes(xml, from, to, false)
    // Capital letters (at most three: up to ZZZ, which columnAt reads alike), then digits.
    let k = from + 4
    let column = 0
    let code = xml.charCodeAt(k)
    while (code >= 65 && code <= 90 && k < from + 7) {
      column = column * 26 + (code - 64)
      code = xml.charCodeAt((k += 1))
    }
    const digits = k
    while (code >= 48 && code <= 57) code = xml.charCodeAt((k += 1))
    if (column === 0 || k === digits || code !== 34)
      return this.scanAttributes(xml, from, to, false)
    k += 1
    let style = -1
    if (this.attributeAt(xml, k, 115)) {
      // At most 9 digits: styleAt reads them alike (it gives up past 10^9).
      const start = k + 4
      k = this.digitsFrom(xml, start, 9)
      if (k === start || xml.charCodeAt(k) !== 34) return this.scanAttributes(xml, from, to, false)
      style = this.digits
      k += 1
    }
    let typeFrom = -1
    let typeTo = -1
    if (this.attributeAt(xml, k, 116)) {
      typeFrom = k += 4
      code = xml.charCodeAt(k)
      while (code >= 97 && code <= 122) code = xml.charCodeAt((k += 1))
      if (k === typeFrom || code !== 34) return this.scanAttributes(xml, from, to, false)
      typeTo = k
      k += 1
    }
    if (k !== to) return this.scanAttributes(xml, from, to, false)
    this.column = column - 1
    this.style = style
    this.typeFrom = typeFrom
    this.typeTo = typeTo
    this.rowNumber = -1
  }

  /**
   * A row's start tag between `from` and `to`: its number, as scanAttributes(xml, from, to,
   * true) reads it into `rowNumber`. The usual tag, ` r="7"` first, is read without going
   * through its other attributes (spans, heights...), when none of them can be another r.
   */
  scanRow(xml: string, from: number, to: number): void {
    if (this.attributeAt(xml, from, 114)) {
      // At most 9 digits: rowNumberAt reads them alike.
      const k = this.digitsFrom(xml, from + 4, 9)
      // Another attribute named r, the last of which scanAttributes would take, starts with an
      // r after a space (or a quote, in a tag missing its spaces): none, and the first r is
      // the row's number.
      let other = xml.indexOf('r', k)
      while (other >= 0 && other < to && !opensAttribute(xml.charCodeAt(other - 1)))
        other = xml.indexOf('r', other + 1)
      if (k > from + 4 && xml.charCodeAt(k) === 34 && k < to && (other < 0 || other >= to)) {
        this.rowNumber = this.digits
        return
      }
    }
    this.scanAttributes(xml, from, to, true)
  }

  /** What digitsFrom read last. */
  private digits = 0

  /** Reads at most `most` digits from `at` into `digits`; answers where they end. */
  private digitsFrom(xml: string, at: number, most: number): number {
    let n = 0
    let k = at
    let code = xml.charCodeAt(k)
    while (code >= 48 && code <= 57 && k < at + most) {
      n = n * 10 + (code - 48)
      code = xml.charCodeAt((k += 1))
    }
    this.digits = n
    return k
  }

  /** Whether ` n="` (a one-letter name `n`, as a character code) starts at `at`. */
  private attributeAt(xml: string, at: number, name: number): boolean {
    return (
      xml.charCodeAt(at) === 32 &&
      xml.charCodeAt(at + 1) === name &&
      xml.charCodeAt(at + 2) === 61 &&
      xml.charCodeAt(at + 3) === 34
    )
  }

  /** Finds the text of a cell's <v> between `from` and `to`; false when it has none. */
  findValue(xml: string, from: number, to: number): boolean {
    let v = xml.indexOf('<v', from)
    while (v >= 0 && v < to && !endsName(xml.charCodeAt(v + 2))) v = xml.indexOf('<v', v + 2)
    if (v < 0 || v >= to) return false
    const gt = xml.indexOf('>', v)
    if (gt < 0 || gt >= to) return false
    if (xml.charCodeAt(gt - 1) === 47) {
      this.valueFrom = this.valueTo = gt
      return true
    }
    const end = xml.indexOf('</v>', gt)
    this.valueFrom = gt + 1
    this.valueTo = end < 0 || end > to ? to : end
    return true
  }

  /**
   * Whether the value text between `from` and `to` is plain digits (a minus sign allowed, at
   * most 15 digits: exact as a double), read into `number`. Anything else (decimals,
   * exponents, spaces) is left to Number.
   */
  private wholeNumber(xml: string, from: number, to: number): boolean {
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
    this.number = negative ? -n : n
    return true
  }

  /**
   * Whether the value text between `from` and `to` is a plain decimal (a minus sign allowed,
   * digits, a point, digits; at most 15 digits in all), read into `number`. Its digits as a
   * whole number and the power of ten both are exact doubles, so one division rounds as Number
   * does (the fast path of every correct decimal reader).
   */
  private decimal(xml: string, from: number, to: number): boolean {
    let k = from
    const negative = xml.charCodeAt(k) === 45
    if (negative) k += 1
    if (to - k > 16) return false
    let n = 0
    let point = -1
    for (; k < to; k += 1) {
      const code = xml.charCodeAt(k)
      if (code === 46 && point < 0) point = k
      else if (code >= 48 && code <= 57) n = n * 10 + (code - 48)
      else return false
    }
    const places = to - point - 1
    if (point < 0 || places === 0 || point === (negative ? from + 1 : from)) return false
    const value = n / POWERS_OF_TEN[places]!
    this.number = negative ? -value : value
    return true
  }

  isInlineString(xml: string): boolean {
    return this.typeTo - this.typeFrom === 9 && xml.startsWith('inlineStr', this.typeFrom)
  }

  /** How the cell's style shows a number (undefined: no style, or one unknown). */
  private kind(): Shown | undefined {
    return this.style < 0 ? undefined : this.kinds[this.style]
  }

  /** A number as the cell's style shows it (a date, a time...). */
  private shown(n: number): CellValue {
    const kind = this.kind()
    return kind === undefined || kind === 'number' ? n : serialValue(n, kind, this.date1904)
  }

  /**
   * The value of a cell with a <v> whose text lies between `from` and `to`, by the type and
   * style scanAttributes found (any type but inlineStr).
   */
  valueOf(xml: string, from: number, to: number): CellValue {
    // The type, without making a string for the usual ones (none: a number; s: shared).
    const typeLength = this.typeFrom < 0 ? 0 : this.typeTo - this.typeFrom
    if (typeLength === 1 && xml.charCodeAt(this.typeFrom) === 115) {
      const index = sharedIndex(xml, from, to)
      return index < 0 ? null : this.strings.at(index)
    }
    // A number cell holding a whole number: read from its digits, no string made.
    if (typeLength === 0 && (this.wholeNumber(xml, from, to) || this.decimal(xml, from, to)))
      return this.shown(this.number)
    const type = typeLength === 0 ? 'n' : xml.slice(this.typeFrom, this.typeTo)
    const raw = xml.slice(from, to)
    if (type === 'b') return raw.trim() === '1' || raw.trim() === 'true'
    if (type === 'str' || type === 'e') return decodeXmlText(raw)
    if (type === 'd') return isoCellValue(decodeXmlText(raw), this.kind())
    const n = Number(raw)
    if (raw.trim() === '' || Number.isNaN(n)) return decodeXmlText(raw)
    return this.shown(n)
  }
}
