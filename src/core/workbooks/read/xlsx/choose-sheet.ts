/**
 * Which sheet of an xlsx holds the rows. The one the user named; else the one named Input (the
 * generated workbook's); else, among the visible worksheets, the one whose header fits the
 * template's fields best, said in a notice. Two that fit equally well are not guessed between:
 * the user is asked to choose (the result names them).
 */
import { WorkbookFileError } from '../../limits'
import { isBlank } from '../../../../shared/input-schema'
import { cellText, inputCandidates, sameSheetName, SHEETS } from '../../sheets'
import type { Collector } from '../../validate/collector'
import type { SheetHeader } from '../../validate/read-result'
import type { XlsxSheet, XlsxWorkbook } from './workbook'

/** Filled rows looked at for a header (a title or a note may sit above it). */
const HEADER_ROWS_LOOKED_AT = 10

/** The filled row among a sheet's first ones that names most of the template's fields. */
async function sheetHeader(
  book: XlsxWorkbook,
  sheet: XlsxSheet,
  collector: Collector,
): Promise<SheetHeader> {
  const best: SheetHeader = { name: sheet.name, headerRow: 0, header: [], fit: -1 }
  let looked = 0
  const enough = () => looked >= HEADER_ROWS_LOOKED_AT
  await book.rows(
    sheet,
    (cells, rowNumber) => {
      if (enough() || cells.every(isBlank)) return
      const fit = collector.headerFit(cells)
      if (fit > best.fit)
        Object.assign(best, {
          headerRow: rowNumber,
          header: cells.map((c) => (isBlank(c) ? '' : cellText(c).trim())),
          fit,
        })
      looked += 1
    },
    enough,
  )
  return { ...best, fit: Math.max(0, best.fit) }
}

function quotedList(names: string[]): string {
  const quoted = names.map((n) => `“${n}”`)
  return quoted.length <= 2
    ? quoted.join(' and ')
    : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`
}

/** The sheet the user named is not in the workbook. */
export function noSuchSheet(fileName: string, wanted: string, names: string[]) {
  return new WorkbookFileError(
    `“${fileName}” has no sheet named “${wanted}”. Its sheets are ${quotedList(names)}.`,
  )
}

/**
 * The sheet to read, told to the collector (which sheet, the others, a notice); undefined when
 * no sheet can hold rows, null when the user must choose (a file error says so).
 */
export async function chooseSheet(
  book: XlsxWorkbook,
  collector: Collector,
  fileName: string,
  wanted: string | undefined,
): Promise<XlsxSheet | null | undefined> {
  const worksheets = book.sheets.filter((s) => s.kind === 'worksheet')
  if (wanted !== undefined) {
    const named = worksheets.find((s) => sameSheetName(s.name, wanted))
    if (!named)
      throw noSuchSheet(
        fileName,
        wanted,
        worksheets.map((s) => s.name),
      )
    collector.sheetRead = { sheet: named.name }
    return named
  }
  const candidates = inputCandidates(book.sheets)
  const input = worksheets.find((s) => sameSheetName(s.name, SHEETS.input)) ?? candidates[0]
  if (!input) return undefined
  if (sameSheetName(input.name, SHEETS.input) || candidates.length < 2) {
    collector.sheetRead = { sheet: input.name }
    return input
  }
  const sheets: SheetHeader[] = []
  for (const sheet of candidates) sheets.push(await sheetHeader(book, sheet, collector))
  const bestFit = Math.max(...sheets.map((s) => s.fit))
  const best = sheets.filter((s) => s.fit === bestFit)
  if (bestFit > 0 && best.length > 1) {
    const choices = best.map((s) => s.name)
    collector.sheetRead = { sheets, choices }
    collector.fileError(
      `The sheets ${quotedList(choices)} fit the template's columns equally well. Choose the sheet that holds the rows to send.`,
    )
    return null
  }
  const chosen = bestFit > 0 ? best[0]! : sheets[0]!
  collector.sheetRead = { sheet: chosen.name, sheets }
  collector.notices.push(
    bestFit > 0
      ? `Read the sheet “${chosen.name}”: of the workbook's ${sheets.length} sheets, its headers fit the template best.`
      : `Read the sheet “${chosen.name}”, the first of the workbook's ${sheets.length} sheets (none has the template's headers).`,
  )
  return candidates.find((s) => s.name === chosen.name)!
}
