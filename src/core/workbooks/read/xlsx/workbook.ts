/**
 * The fast streaming reader of .xlsx files (Office Open XML, transitional and strict).
 *
 * It finds the workbook through the package's relationships (wherever the writer put it), then
 * inflates only what it needs: the workbook (sheet names, order, visibility, kind), the styles
 * (which cells show a date, a time of day or a duration), the shared strings, and the sheet it
 * is asked for, one row at a time (sheet-rows.ts). Cells come out as what the user sees: text,
 * numbers, booleans, dates, times of day ("14:30:00"), durations ("36:15:00"), error codes,
 * and the cached result of a formula. Every size is checked before it is allocated (limits.ts).
 */
import { UserFacingError } from '../../../../shared/errors'
import { RESAVE, WorkbookFileError } from '../../limits'
import { CellScanner } from './cell-scanner'
import { sheetLinks } from './hyperlinks'
import { relationships, smallText, typeIs, type Relationship } from './relationships'
import { readSharedStrings, type SharedStrings } from './shared-strings'
import { readSheetRows, type EachRow } from './sheet-rows'
import { styleKinds } from './styles'
import { attribute, startTags } from './xml'
import type { Zip } from './zip'

/**
 * The zip is not an xlsx this reader knows (no workbook part): the dispatcher tries another
 * reader, so a user sees it only if that one cannot read the file either.
 */
export class XlsxUnsupported extends UserFacingError {
  override name = 'XlsxUnsupported'
  readonly category = 'bad-input' as const
  constructor(fileName: string) {
    super(`“${fileName}” is not a workbook this reader knows (it has no workbook part).`, RESAVE)
  }
}

export interface XlsxSheet {
  name: string
  state: 'visible' | 'hidden' | 'veryHidden'
  /** worksheet, or a chart sheet / macro sheet / dialog sheet that holds no rows. */
  kind: 'worksheet' | 'other'
  /** The sheet's part in the zip, e.g. xl/worksheets/sheet1.xml. */
  part: string
}

export interface XlsxWorkbook {
  sheets: XlsxSheet[]
  /**
   * Streams one sheet's rows: cells by column (0-based), with the sheet's row number, and the
   * web links of the row's cells (column -> address) when it has any.
   */
  rows(sheet: XlsxSheet, each: EachRow, enough?: () => boolean): Promise<void>
  /** Lets go what reading the rows holds (the shared strings past memory's budget, on disk). */
  close(): Promise<void>
}

/** Which package this zip is when it is no xlsx, for a message that says what to do. */
function otherPackage(zip: Zip): string | null {
  if (zip.find('xl/workbook.bin')) return 'an Excel binary workbook (.xlsb)'
  if (zip.find('content.xml') && zip.find('mimetype')) return 'an OpenDocument file (.ods)'
  if (zip.find('word/document.xml')) return 'a Word document'
  if (zip.find('ppt/presentation.xml')) return 'a PowerPoint presentation'
  if (zip.find('Index/Document.iwa')) return 'a Numbers document'
  return null
}

/** The workbook part: named by the package's relationships, else where Excel puts it. */
async function workbookPart(zip: Zip, fileName: string): Promise<string> {
  const root = await relationships(zip, '')
  const officeDocument = [...root.values()].find((r) => !r.external && typeIs(r, 'officeDocument'))
  let part = officeDocument?.target
  if (!part || !zip.find(part)) part = zip.find('xl/workbook.xml')?.name
  if (part) return part
  const other = otherPackage(zip)
  if (other)
    throw new WorkbookFileError(
      `“${fileName}” is ${other}, not an Excel workbook. Save it as .xlsx (Excel workbook) or .csv and try again.`,
    )
  throw new XlsxUnsupported(fileName)
}

/** The sheets the workbook lists, in its order, each with its part. */
function listSheets(zip: Zip, workbookXml: string, rels: Map<string, Relationship>): XlsxSheet[] {
  const sheets: XlsxSheet[] = []
  for (const tag of startTags(workbookXml, 'sheet')) {
    const id = attribute(tag, '*:id') ?? attribute(tag, 'id')
    const rel = id ? rels.get(id) : undefined
    if (!rel || rel.external || !zip.find(rel.target)) continue
    const state = attribute(tag, 'state')
    sheets.push({
      name: attribute(tag, 'name') ?? '',
      state: state === 'hidden' || state === 'veryHidden' ? state : 'visible',
      kind: typeIs(rel, 'worksheet') ? 'worksheet' : 'other',
      part: zip.find(rel.target)!.name,
    })
  }
  return sheets
}

/** Opens the xlsx in a zip; a zip that holds another kind of document is a file error. */
export async function openXlsxZip(zip: Zip, fileName: string): Promise<XlsxWorkbook> {
  const part = await workbookPart(zip, fileName)
  const workbookXml = await smallText(zip, zip.find(part)!)
  const rels = await relationships(zip, part)
  const date1904 = startTags(workbookXml, 'workbookPr').some((tag) =>
    /^(1|true)$/i.test(attribute(tag, 'date1904') ?? ''),
  )
  const byType = (type: string, usual: string) => {
    const rel = [...rels.values()].find((r) => !r.external && typeIs(r, type))
    return (rel && zip.find(rel.target)) || zip.find(usual)
  }
  const stylesEntry = byType('styles', 'xl/styles.xml')
  const kinds = stylesEntry ? styleKinds(await smallText(zip, stylesEntry)) : []
  const sharedEntry = byType('sharedStrings', 'xl/sharedStrings.xml')
  // Read once, when the first sheet's rows are asked for, and kept for the other sheets.
  let shared: Promise<SharedStrings> | null = null
  return {
    sheets: listSheets(zip, workbookXml, rels),
    async rows(sheet, each, enough) {
      shared ??= readSharedStrings(zip, sharedEntry)
      const strings = await shared
      const linksOf = await sheetLinks(zip, sheet)
      const scanner = new CellScanner(strings, kinds, date1904)
      const where = `The sheet “${sheet.name}”`
      await readSheetRows(zip, zip.find(sheet.part)!, scanner, linksOf, where, each, enough)
    },
    async close() {
      const strings = shared
      shared = null
      if (strings) (await strings.catch(() => null))?.close()
    },
  }
}
