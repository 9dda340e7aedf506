// Real files written by Excel (Windows, Mac, Strict), LibreOffice, Gnumeric, openpyxl, POI,
// SheetJS and others, from the public test suites of other readers or saved here
// (test/fixtures/README.md says where each file comes from), read cell by cell beside SheetJS,
// the reference reader. Every difference is
// either none or one listed below with the reason SheetJS and we disagree.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import XLSX from 'xlsx'
import { readInputWorkbook } from '../../src/core/workbooks'
import { compareWithSheetJs } from './support/compare'

const fixtures = join(import.meta.dirname, '..', 'fixtures')
const real = join(fixtures, 'real')
const libre = join(fixtures, 'libreoffice')
const others = join(fixtures, 'other-writers')

/** file -> cell -> why we differ from SheetJS there (checked: the listed cells must differ). */
const KNOWN: Record<string, Record<string, string>> = {
  'calamine_date_1904.xlsx': {
    A1: 'SheetJS 0.18 ignores date1904="true" (LibreOffice writes true, not 1); calamine reads 2021-01-01 as we do',
    A2: 'the same',
  },
  'calamine_date_iso.xlsx': {
    A3: 'a t="d" time of day ("10:10:10"): SheetJS makes an invalid Date',
  },
  'calamine_minimal_package.xlsx': {
    A1: 'an inline string with a plain <t> and then a rich run: SheetJS keeps only the first',
  },
}

beforeAll(() => {
  // SheetJS builds dates in local time; our dates are UTC.
  process.env.TZ = 'UTC'
})

describe('real xlsx files beside SheetJS, cell by cell', () => {
  const files = [
    ...readdirSync(real)
      .filter((f) => f.endsWith('.xlsx'))
      .map((f) => join(real, f)),
    ...[libre, others].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.xlsx'))
        .map((f) => join(dir, f)),
    ),
  ].sort()

  it('has the corpus', () => expect(files.length).toBeGreaterThanOrEqual(47))

  for (const path of files) {
    const name = path.split('/').pop()!
    it(name, async () => {
      const comparison = await compareWithSheetJs(path)
      expect(comparison.sheet).not.toBeNull()
      const known = KNOWN[name] ?? {}
      const unexplained = comparison.differences.filter((d) => !(d.cell in known))
      expect(unexplained).toEqual([])
      expect(comparison.differences.map((d) => d.cell).sort()).toEqual(Object.keys(known).sort())
      // And the whole file reads without a file error about the file itself.
      const result = await readInputWorkbook({ path }, null)
      expect(result.unreadable ?? false).toBe(false)
    })
  }
})

describe('what LibreOffice saved, in every format', () => {
  const expected = [
    {
      Message: 'Café crème – naïve “quoted”',
      Due: '2024-03-05',
      Start: '14:30:00',
      Hours: '36:15:00',
      Amount: 1234.5,
      Done: true,
    },
    {
      Message: 'Ünïcödé ✓ 漢字',
      Due: '1900-01-01',
      Start: '06:00:00',
      Hours: '12:00:00',
      Amount: -3,
      Done: false,
    },
    {
      Message: 'line one\nline two',
      Due: '2026-12-31',
      Start: '23:59:59',
      Hours: '2406:00:00',
      Amount: 0.1,
      Done: true,
    },
  ]
  /** csv cells are text: numbers and booleans as LibreOffice wrote them. */
  const asCsv = (rows: typeof expected) =>
    rows.map((r) => ({ ...r, Amount: String(r.Amount), Done: r.Done ? 'TRUE' : 'FALSE' }))

  it('xlsx saved by LibreOffice: dates, times of day, durations, text', async () => {
    const result = await readInputWorkbook({ path: join(libre, 'libreoffice_types.xlsx') }, null)
    expect(result.fileErrors).toEqual([])
    // The day stored as serial 2: LibreOffice shows 1900-01-01 (its csv says so), Excel shows
    // 1900-01-02, counting its 29 February 1900; we read dates as Excel shows them.
    expect(result.rows).toEqual(expected.map((r, i) => (i === 1 ? { ...r, Due: '1900-01-02' } : r)))
  })

  it('csv in UTF-8 (comma), Windows-1252 (semicolon) and UTF-16 (tab)', async () => {
    const utf8 = await readInputWorkbook({ path: join(libre, 'libreoffice_utf8_comma.csv') }, null)
    expect(utf8.rows).toEqual(asCsv(expected))
    expect(utf8.notices).toEqual(['Read as UTF-8 text, fields separated by “,”.'])
    const cp1252 = await readInputWorkbook(
      { path: join(libre, 'libreoffice_cp1252_semicolon.csv') },
      null,
    )
    // Windows-1252 has no ✓ or 漢字: LibreOffice wrote question marks.
    expect(cp1252.rows).toEqual(
      asCsv(expected).map((r, i) => (i === 1 ? { ...r, Message: 'Ünïcödé ? ??' } : r)),
    )
    expect(cp1252.notices?.[0]).toMatch(
      /^Read as Windows-1252 \(it is not UTF-8\) text, fields separated by “;”/,
    )
    const utf16 = await readInputWorkbook({ path: join(libre, 'libreoffice_utf16_tab.csv') }, null)
    expect(utf16.rows).toEqual(asCsv(expected))
    expect(utf16.notices).toEqual(['Read as UTF-16 LE text, fields separated by tab.'])
  })

  it('the same workbook saved by Gnumeric and by openpyxl reads the same', async () => {
    const asExcelShows = expected.map((r, i) => (i === 1 ? { ...r, Due: '1900-01-02' } : r))
    for (const name of ['gnumeric_types.xlsx', 'openpyxl_types.xlsx']) {
      const result = await readInputWorkbook({ path: join(others, name) }, null)
      expect(result.fileErrors, name).toEqual([])
      expect(result.rows, name).toEqual(asExcelShows)
    }
    // Gnumeric's csv writes dates as 2024/03/05 (Excel's own serial 2 is 1900/01/02 there too).
    const csv = await readInputWorkbook({ path: join(others, 'gnumeric_comma.csv') }, null)
    expect(csv.rows).toEqual(
      asCsv(asExcelShows).map((r) => ({ ...r, Due: r.Due.replaceAll('-', '/') })),
    )
  })

  it('an OpenDocument file says what to do', async () => {
    const result = await readInputWorkbook({ path: join(libre, 'libreoffice_types.ods') }, null)
    expect(result.fileErrors).toEqual([
      '“libreoffice_types.ods” is an OpenDocument file (.ods), not an Excel workbook. Save it as .xlsx (Excel workbook) or .csv and try again.',
    ])
  })
})

describe('real csv files beside SheetJS', () => {
  for (const name of ['sheetjs_Attendance.csv', 'sheetjs_LO7322.csv']) {
    it(name, async () => {
      const cells: string[][] = []
      const { readCsv } = await import('../../src/core/workbooks')
      await readCsv(
        { path: join(real, name) },
        {
          row: (row) => cells.push(row.map((c) => (c === null ? '' : String(c)))),
        },
      )
      const reference = XLSX.read(readFileSync(join(real, name), 'utf8'), {
        type: 'string',
        raw: true,
      })
      const sheet = reference.Sheets[reference.SheetNames[0]!]!
      const theirs = XLSX.utils.sheet_to_json<string[]>(sheet, {
        header: 1,
        raw: false,
        defval: '',
        blankrows: true,
      })
      const trim = (rows: string[][]) =>
        rows.map((r) => {
          const row = [...r]
          while (row.length && row[row.length - 1] === '') row.pop()
          return row
        })
      expect(trim(cells)).toEqual(trim(theirs))
    })
  }
})
