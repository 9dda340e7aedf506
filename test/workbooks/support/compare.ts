// Cell-by-cell comparison of our xlsx reader with SheetJS (the reference reader), for the
// sheet ours takes as the input sheet. Used by the differential test.
import { readFileSync } from 'node:fs'
import XLSX from 'xlsx'
import { chooseInputSheet } from '../../../src/core/workbooks'
import { openByteSource } from '../../../src/core/workbooks/byte-source'
import { decodeText } from '../../../src/core/workbooks/read/xlsx/part-text'
import { openXlsxZip } from '../../../src/core/workbooks/read/xlsx/workbook'
import { openZip } from '../../../src/core/workbooks/read/xlsx/zip'
import type { CellValue } from '../../../src/shared/input-schema'

export interface Difference {
  cell: string
  ours: string
  theirs: string
}

export interface Comparison {
  sheet: string | null
  cells: number
  differences: Difference[]
  /** The program that wrote the file, from docProps/app.xml. */
  application: string
}

const DAY_MS = 86_400_000
const two = (n: number) => String(n).padStart(2, '0')

function show(value: unknown): string {
  if (value instanceof Date)
    return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`
  return JSON.stringify(value) ?? 'undefined'
}

/** Whether our cell says what SheetJS's says (dates as UTC; times and durations as text). */
function same(ours: CellValue, theirs: XLSX.CellObject | undefined): boolean {
  const blank = (v: CellValue) => v === null || v === ''
  if (!theirs || theirs.v === undefined || theirs.v === null) return blank(ours)
  if (theirs.t === 'z') return blank(ours)
  if (theirs.t === 'e')
    return typeof ours === 'string' && ours === (theirs.w ?? XLSX.utils.format_cell(theirs))
  if (theirs.t === 's') return ours === theirs.v || (blank(ours) && theirs.v === '')
  if (theirs.t === 'b') return ours === theirs.v
  if (theirs.t === 'n') {
    if (typeof ours !== 'number' || typeof theirs.v !== 'number') return false
    return Math.abs(ours - theirs.v) <= 1e-9 * Math.max(1, Math.abs(theirs.v))
  }
  if (theirs.t === 'd') {
    const raw = theirs.v instanceof Date ? theirs.v : new Date(String(theirs.v))
    let date = raw
    // SheetJS counts days before March 1900 from 1899-12-30 (one day early: it has no
    // 29 February 1900); Excel shows them one day later.
    if (date.getTime() < Date.UTC(1900, 2, 1) && date.getTime() >= Date.UTC(1899, 11, 31))
      date = new Date(date.getTime() + DAY_MS)
    if (ours instanceof Date) {
      if (Math.abs(ours.getTime() - date.getTime()) < 1000) return true
      // A date-only format: we give the day the cell shows, SheetJS the time in it too.
      return (
        ours.getTime() % DAY_MS === 0 &&
        Math.floor(date.getTime() / DAY_MS) * DAY_MS === ours.getTime()
      )
    }
    // A serial outside Excel's calendar (Excel shows ####): we keep the number.
    if (typeof ours === 'number') return ours < 0 || ours > 2_958_465
    if (typeof ours === 'string') {
      const ms = raw.getTime() - Date.UTC(1899, 11, 30)
      // A time of day ("14:30" or "14:30:05"), or a duration in hours ("36:15:00").
      const time = /^(-?\d+):(\d{2})(?::(\d{2}))?$/.exec(ours)
      if (time) {
        const seconds = Math.round((((ms % DAY_MS) + DAY_MS) % DAY_MS) / 1000)
        const ofDay = `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}`
        const total = Math.round(Math.abs(ms) / 1000)
        const elapsed = `${ms < 0 ? '-' : ''}${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`
        return ours.startsWith(ofDay) || ours === elapsed
      }
      // 1900-02-29, the day Excel counts that never was.
      return ours === date.toISOString().slice(0, 10)
    }
    return false
  }
  return false
}

export async function compareWithSheetJs(path: string): Promise<Comparison> {
  const bytes = await openByteSource({ path })
  try {
    const zip = await openZip(bytes)
    const app = zip.find('docProps/app.xml')
    const application = app
      ? (/<(?:\w+:)?Application>([^<]*)</.exec(decodeText(await zip.bytes(app, 1 << 20)))?.[1] ??
        '')
      : ''
    const book = await openXlsxZip(zip, path)
    const sheet = chooseInputSheet(book.sheets)
    if (!sheet) return { sheet: null, cells: 0, differences: [], application }
    const ours = new Map<string, CellValue>()
    await book.rows(sheet, (cells, rowNumber) => {
      cells.forEach((value, column) => {
        if (value !== null) ours.set(XLSX.utils.encode_cell({ r: rowNumber - 1, c: column }), value)
      })
    })
    const reference = XLSX.read(readFileSync(path), {
      cellDates: true,
      cellNF: false,
      dense: false,
    })
    const theirs = reference.Sheets[sheet.name] ?? {}
    const addresses = new Set([
      ...ours.keys(),
      ...Object.keys(theirs).filter((k) => !k.startsWith('!')),
    ])
    const differences: Difference[] = []
    for (const address of addresses) {
      const mine = ours.get(address) ?? null
      const cell = theirs[address] as XLSX.CellObject | undefined
      if (!same(mine, cell))
        differences.push({
          cell: address,
          ours: show(mine),
          theirs: cell ? `${cell.t}:${show(cell.v)}` : 'none',
        })
    }
    return { sheet: sheet.name, cells: addresses.size, differences, application }
  } finally {
    await bytes.close()
  }
}
