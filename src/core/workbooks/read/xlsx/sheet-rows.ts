/**
 * One sheet's rows, streamed: each row's cells by column (0-based), with the row's number in
 * the sheet and its cells' web links. The usual row is read where it lies in the sheet's text;
 * any other shape is read from its own copy. All the state of a read (the scanner, the last
 * row number, rows seen) belongs to that read alone.
 */
import type { CellValue } from '../../../../shared/input-schema'
import { MAX_COLUMNS, MAX_ROWS, MAX_SHEET_BYTES, RESAVE, WorkbookFileError } from '../../limits'
import { closesValueAndCell, endsName, type CellScanner } from './cell-scanner'
import { tooWide, type RowLinks } from './hyperlinks'
import { textChunks } from './part-text'
import { runsText } from './shared-strings'
import { eachElement, unprefixed, type ElementReader } from './xml'
import type { Zip, ZipEntry } from './zip'

export type EachRow = (
  cells: CellValue[],
  rowNumber: number,
  links: Map<number, string> | undefined,
  /** The row is hidden in the sheet (hidden="1"). */
  hidden: boolean,
) => void

const INLINE = /<is>([\s\S]*?)<\/is>/

const HIDDEN = /\shidden\s*=\s*["'](1|true)["']/

/** Whether a row's start tag (between `from` and `to`) says the row is hidden. */
function isHidden(xml: string, from: number, to: number): boolean {
  // Only the start tag is looked at (a search past it would cost a scan of the chunk per row),
  // and a closer look only when "hidden" is there.
  for (let k = from; k < to; k += 1)
    if (xml.charCodeAt(k) === 104 && xml.startsWith('hidden', k))
      return HIDDEN.test(xml.slice(from, to))
  return false
}

function tooLong(where: string): never {
  throw new WorkbookFileError(
    `${where} has a row beyond row 1,048,576, the last row a spreadsheet can have. ${RESAVE}`,
  )
}

/**
 * Streams the rows of a sheet's part to `each`, until `enough` says so (it is asked between
 * chunks, so a few rows past that point may still come).
 */
export async function readSheetRows(
  zip: Zip,
  part: ZipEntry,
  scanner: CellScanner,
  linksOf: RowLinks | null,
  where: string,
  each: EachRow,
  enough?: () => boolean,
): Promise<void> {
  await eachElement(
    unprefixed(textChunks(zip.inflate(part, MAX_SHEET_BYTES))),
    'row',
    new RowReader(scanner, linksOf, where, each),
    where,
    undefined,
    enough,
  )
}

/** The rows of one read of a sheet, as eachElement finds them. */
class RowReader implements ElementReader {
  private lastRow = 0
  private rowsSeen = 0
  /** The text last searched for "hidden", and where it is next in it (-1: nowhere after). */
  private searched = ''
  private nextHidden = -2
  private searchedFrom = 0

  /**
   * isHidden for a row read in place: "hidden" is searched for once a chunk, not once a row
   * (the usual sheet has none), and a row whose start tag holds it gets isHidden's closer look.
   */
  private hiddenInPlace(xml: string, from: number, to: number): boolean {
    // A new text, or a search from further back (the same text again): search afresh.
    if (xml !== this.searched || from < this.searchedFrom) {
      this.searched = xml
      this.nextHidden = -2
    }
    this.searchedFrom = from
    if (this.nextHidden !== -1 && this.nextHidden < from)
      this.nextHidden = xml.indexOf('hidden', from)
    return this.nextHidden >= 0 && this.nextHidden < to && isHidden(xml, from, to)
  }

  constructor(
    private readonly scanner: CellScanner,
    private readonly linksOf: RowLinks | null,
    private readonly where: string,
    private readonly each: EachRow,
  ) {}

  /**
   * The usual row, <row ...><c ...><v>text</v></c>...</row>, read in one pass where it lies in
   * the sheet's text: no copy of it, no second search for its end. Anything else (a formula, an
   * inline string, a row not all in this chunk, a broken limit) is left to `whole`, so this
   * never throws and changes nothing unless it reads the row.
   */
  inPlace(xml: string, start: number, headEnd: number): number {
    const scanner = this.scanner
    scanner.scanRow(xml, start + 4, headEnd)
    const rowNumber = scanner.rowNumber >= 0 ? scanner.rowNumber : this.lastRow + 1
    if (rowNumber > MAX_ROWS || this.rowsSeen >= MAX_ROWS) return -1
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
        // "</" known: "row>" by character code.
        if (
          xml.charCodeAt(at + 2) !== 114 ||
          xml.charCodeAt(at + 3) !== 111 ||
          xml.charCodeAt(at + 4) !== 119 ||
          xml.charCodeAt(at + 5) !== 62
        )
          return -1
        at += 6
        break
      }
      if (next !== 99 || !endsName(xml.charCodeAt(at + 2))) return -1
      const gt = xml.indexOf('>', at + 2)
      // The row's end tag inside a broken start tag: the first "</row>" ends the row.
      if (gt < 0 || (xml.charCodeAt(gt - 1) === 119 && xml.startsWith('</row>', gt - 5))) return -1
      const selfClosing = xml.charCodeAt(gt - 1) === 47
      scanner.scanCell(xml, at + 2, selfClosing ? gt - 1 : gt)
      column = scanner.column >= 0 ? scanner.column : column + 1
      if (column >= MAX_COLUMNS) return -1
      if (selfClosing) {
        at = gt + 1
        continue
      }
      // <v>text</v></c>, the text holding no tag (a million cells: their tags are compared by
      // character code, which costs less than a call of startsWith).
      if (
        xml.charCodeAt(gt + 1) !== 60 ||
        xml.charCodeAt(gt + 2) !== 118 ||
        xml.charCodeAt(gt + 3) !== 62 ||
        scanner.isInlineString(xml)
      )
        return -1
      const lt = xml.indexOf('<', gt + 4)
      if (!closesValueAndCell(xml, lt)) return -1
      const value = scanner.valueOf(xml, gt + 4, lt)
      while (cells.length < column) cells.push(null)
      cells[column] = value
      at = lt + 8
    }
    this.rowsSeen += 1
    this.lastRow = rowNumber
    const hidden = this.hiddenInPlace(xml, start, headEnd)
    this.each(cells, rowNumber, this.linksOf?.(rowNumber, cells.length), hidden)
    return at
  }

  /** Any row, from its own copy: a hand-written scan (no regular expression, no object per cell). */
  whole(rowXml: string): void {
    const scanner = this.scanner
    const headEnd = rowXml.indexOf('>') + 1
    scanner.scanRow(rowXml, 4, headEnd - 1)
    const rowNumber = scanner.rowNumber >= 0 ? scanner.rowNumber : this.lastRow + 1
    this.rowsSeen += 1
    if (rowNumber > MAX_ROWS || this.rowsSeen > MAX_ROWS) tooLong(this.where)
    this.lastRow = rowNumber
    const cells: CellValue[] = []
    let column = -1
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
      scanner.scanCell(rowXml, open + 2, selfClosing ? gt - 1 : gt)
      column = scanner.column >= 0 ? scanner.column : column + 1
      if (column >= MAX_COLUMNS) tooWide(this.where)
      if (selfClosing) {
        at = gt + 1
        continue
      }
      let close = rowXml.indexOf('</c>', gt)
      if (close < 0) close = rowXml.length
      at = close + 4
      let value: CellValue
      if (scanner.isInlineString(rowXml)) {
        value = runsText(INLINE.exec(rowXml.slice(gt + 1, close))?.[1] ?? '')
      } else {
        if (!scanner.findValue(rowXml, gt + 1, close)) continue
        value = scanner.valueOf(rowXml, scanner.valueFrom, scanner.valueTo)
      }
      while (cells.length < column) cells.push(null)
      cells[column] = value
    }
    const hidden = isHidden(rowXml, 0, headEnd)
    this.each(cells, rowNumber, this.linksOf?.(rowNumber, cells.length), hidden)
  }
}
