/**
 * The fixed parts of the set-aside workbook (write/set-aside.ts) and the XML of its cells and
 * notes: an xlsx of two sheets, "To fix" and a hidden one, with one bold style for the header,
 * one fill for the bad cells, date and date-and-time formats, and a note on each bad cell
 * (comments and their VML shapes, which Excel needs to show them). A cell keeps the type it was
 * read with: text, a number, yes/no, or a date (a day number under a date format, as Excel keeps
 * one).
 */
import { isBlank, type CellValue } from '../../../shared/input-schema'
import { cellText } from '../sheets'

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PACKAGE_REL = 'http://schemas.openxmlformats.org/package/2006/relationships'
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml'
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

/**
 * Cell styles: 0 plain, 1 bold (the header), 2 the bad cells' fill, 3 a date, 5 a date and
 * time; a date style's next one is the same with the bad cells' fill.
 */
export const STYLE = { bold: 1, bad: 2, date: 3, dateTime: 5 } as const
/** Built-in number formats: the short date and the date with time, as the computer shows them. */
const FORMAT = { date: 14, dateTime: 22 } as const

const relationships = (rels: [string, string, string][]) =>
  `${HEAD}<Relationships xmlns="${PACKAGE_REL}">${rels
    .map(
      ([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`,
    )
    .join('')}</Relationships>`

/** The parts that do not depend on the rows: name -> text. */
export function fixedParts(sheetName: string, hiddenName: string): [string, string][] {
  const worksheet = `${TYPE}.worksheet+xml`
  return [
    [
      '[Content_Types].xml',
      `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/><Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${worksheet}"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="${worksheet}"/><Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/><Override PartName="/xl/comments1.xml" ContentType="${TYPE}.comments+xml"/></Types>`,
    ],
    ['_rels/.rels', relationships([['rId1', 'officeDocument', 'xl/workbook.xml']])],
    [
      'xl/workbook.xml',
      `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/><sheet name="${xmlText(hiddenName)}" sheetId="2" state="hidden" r:id="rId2"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      relationships([
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ['rId2', 'worksheet', 'worksheets/sheet2.xml'],
        ['rId3', 'styles', 'styles.xml'],
      ]),
    ],
    [
      'xl/styles.xml',
      `${HEAD}<styleSheet xmlns="${MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill><fill><patternFill patternType="solid"><fgColor rgb="FFFDE2E1"/><bgColor indexed="64"/></patternFill></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="7"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="0" applyFill="1"/>${dateStyles(FORMAT.date)}${dateStyles(FORMAT.dateTime)}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
    [
      'xl/worksheets/_rels/sheet1.xml.rels',
      relationships([
        ['rId1', 'comments', '../comments1.xml'],
        ['rId2', 'vmlDrawing', '../drawings/vmlDrawing1.vml'],
      ]),
    ],
  ]
}

/** A date format's two cell styles: plain, then with the bad cells' fill. */
const dateStyles = (format: number) =>
  `<xf numFmtId="${format}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="${format}" fontId="0" fillId="2" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>`

/** Whether XML can hold the character (tab, line ends and the printable ones). */
function xmlChar(c: number): boolean {
  return c >= 32 ? c !== 0xfffe && c !== 0xffff : c === 9 || c === 10 || c === 13
}

/** Characters XML cannot hold are left out (as spreadsheet programs do); the rest escaped. */
export function xmlText(text: string): string {
  let kept = text
  for (let i = 0; i < text.length; i += 1)
    if (!xmlChar(text.charCodeAt(i))) {
      kept = [...text].filter((ch) => xmlChar(ch.charCodeAt(0))).join('')
      break
    }
  return kept
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** A text cell (empty text: a cell with only its style, or nothing). */
export function textCell(ref: string, text: string, style = 0): string {
  const s = style ? ` s="${style}"` : ''
  if (text === '') return style ? `<c r="${ref}"${s}/>` : ''
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`
}

const DAY_MS = 86_400_000
/** Excel's day numbers (1900 system): 1 is 1900-01-01, 2958465 is 9999-12-31. */
const FIRST_DAY = Date.UTC(1900, 0, 1)
const LAST_DAY = Date.UTC(9999, 11, 31)

/**
 * A date as Excel's day number, counting the 29 February 1900 Excel's calendar has (as the
 * reader does), or null for a date Excel cannot hold.
 */
function serialOf(date: Date): number | null {
  const ms = date.getTime()
  if (!(ms >= FIRST_DAY && ms < LAST_DAY + DAY_MS)) return null
  const serial = ms / DAY_MS + 25569
  return serial < 61 ? serial - 1 : serial
}

/**
 * A cell with the value as read (blank: a cell with only its style, or nothing); `bad` gives it
 * the bad cells' fill. A date Excel cannot hold, or a number that is none, is written as text.
 */
export function valueCell(ref: string, value: CellValue, bad = false): string {
  if (isBlank(value)) return textCell(ref, '', bad ? STYLE.bad : 0)
  const fill = bad ? ` s="${STYLE.bad}"` : ''
  if (typeof value === 'boolean') return `<c r="${ref}"${fill} t="b"><v>${value ? 1 : 0}</v></c>`
  if (typeof value === 'number' && Number.isFinite(value))
    return `<c r="${ref}"${fill}><v>${value}</v></c>`
  const serial = value instanceof Date ? serialOf(value) : null
  if (serial === null) return textCell(ref, cellText(value!), bad ? STYLE.bad : 0)
  const style = (serial % 1 === 0 ? STYLE.date : STYLE.dateTime) + (bad ? 1 : 0)
  return `<c r="${ref}" s="${style}"><v>${serial}</v></c>`
}

/** The sheet's start: the Problem column wide, the Sheet row column after it hidden. */
export const sheetStart = (problemColumn: number) =>
  `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><cols><col min="${problemColumn}" max="${problemColumn}" width="60" customWidth="1"/><col min="${problemColumn + 1}" max="${problemColumn + 1}" width="12" hidden="1" customWidth="1"/></cols><sheetData>`

export const sheetEnd = `</sheetData><legacyDrawing r:id="rId2"/></worksheet>`

export const hiddenSheet = (rows: string) =>
  `${HEAD}<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`

export const commentsStart = `${HEAD}<comments xmlns="${MAIN}"><authors><author></author></authors><commentList>`
export const commentsEnd = '</commentList></comments>'

export const comment = (ref: string, text: string) =>
  `<comment ref="${ref}" authorId="0"><text><r><t xml:space="preserve">${xmlText(text)}</t></r></text></comment>`

export const vmlStart =
  '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel"><o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>'
export const vmlEnd = '</xml>'

/** The (hidden) shape Excel shows a note in, for the note at 0-based `row` and `column`. */
export const vmlShape = (n: number, row: number, column: number) =>
  `<v:shape id="_x0000_s${1025 + n}" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;margin-top:1.5pt;width:108pt;height:59.25pt;z-index:${n + 1};visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto"><v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>${column + 1}, 15, ${row}, 2, ${column + 3}, 15, ${row + 3}, 16</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>${row}</x:Row><x:Column>${column}</x:Column></x:ClientData></v:shape>`
