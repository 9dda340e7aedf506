// The fast xlsx reader against exceljs's streaming reader: the same cells, whatever the file
// holds (shared and inline strings, rich text, formulas, dates, booleans, errors, escapes).
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'

const dir = mkdtempSync(join(tmpdir(), 'sr-xlsx-'))

const tricky: ExcelJS.CellValue[][] = [
  ['plain', 'a & b < c > "d" \'e\'', '007', 42, 3.25],
  ['unicode ✓ 漢字 😀', 'line\nbreak', 'tab\there', -0.5, 1e21],
  [
    { richText: [{ text: 'rich ' }, { text: 'text', font: { bold: true } }] },
    true,
    false,
    { formula: '1+1', result: 2 },
    { formula: '"a"&"b"', result: 'ab' },
  ],
  [new Date(Date.UTC(2026, 2, 5)), { error: '#N/A' }, null, '   spaced   ', '12345678901234567890'],
]

async function write(path: string, sharedStrings: boolean, rows = 3000) {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: sharedStrings,
    useStyles: true,
  })
  const hidden = writer.addWorksheet('Hidden notes', { state: 'hidden' })
  hidden.addRow(['not', 'input']).commit()
  hidden.commit()
  const input = writer.addWorksheet('Orders')
  input.addRow(['A', 'B', 'C', 'D', 'E']).commit()
  for (let i = 0; i < rows; i += 1) {
    const row = input.addRow(tricky[i % tricky.length]!)
    if (i % tricky.length === 3) row.getCell(1).numFmt = 'yyyy-mm-dd'
    row.commit()
    if (i % 500 === 7) input.addRow([]).commit()
  }
  input.commit()
  await writer.commit()
}

describe('the fast xlsx reader', () => {
  for (const shared of [true, false]) {
    it(`reads what exceljs reads (${shared ? 'shared' : 'inline'} strings)`, async () => {
      const path = join(dir, `tricky-${shared}.xlsx`)
      await write(path, shared)
      const fast = await readInputWorkbook({ path }, null)
      const reference = await readInputWorkbook({ path }, null, { xlsxReader: 'exceljs' })
      expect(fast.fileErrors).toEqual([])
      expect(fast.rowCount).toBe(3000)
      // exceljs keeps only the last run of inline rich text; the whole text is what Excel shows.
      const expected = reference.rows.map((row) =>
        row.A === 'text' ? { ...row, A: 'rich text' } : row,
      )
      expect(fast.rows).toEqual(expected)
      expect(fast.rowNumbers).toEqual(reference.rowNumbers)
      const bytes = await readInputWorkbook({ bytes: readFileSync(path), filename: 'x.xlsx' }, null)
      expect(bytes.rows).toEqual(fast.rows)
    })
  }

  it('keeps the values as typed', async () => {
    const path = join(dir, 'tricky-true.xlsx')
    const fast = await readInputWorkbook({ path }, null)
    expect(fast.rows.slice(0, 4)).toEqual([
      { A: 'plain', B: 'a & b < c > "d" \'e\'', C: '007', D: 42, E: 3.25 },
      { A: 'unicode ✓ 漢字 😀', B: 'line\nbreak', C: 'tab\there', D: -0.5, E: 1e21 },
      { A: 'rich text', B: true, C: false, D: 2, E: 'ab' },
      { A: '2026-03-05', B: '#N/A', D: '   spaced   ', E: '12345678901234567890' },
    ])
  })
})

describe('the exceljs reader (the fallback)', () => {
  for (const date1904 of [false, true]) {
    it(`reads times of day and durations as times, as the fast reader does${date1904 ? ' (1904 dates)' : ''}`, async () => {
      const workbook = new ExcelJS.Workbook()
      workbook.properties.date1904 = date1904
      const sheet = workbook.addWorksheet('Input')
      sheet.addRow(['A', 'B', 'C', 'D'])
      // Serial numbers with their formats: the times and durations exceljs alone made dates of.
      const day = date1904 ? 43894 : 45356
      const rows: [number, string][][] = [
        [
          [0.6041666666666666, 'h:mm'],
          [1.5104166666666667, '[h]:mm:ss'],
          [0.5, 'h:mm:ss AM/PM'],
          [0.25, 'mm:ss'],
        ],
        [
          [day + 0.75, 'yyyy-mm-dd hh:mm'],
          [day + 0.75, 'yyyy-mm-dd'],
          [0, 'h:mm'],
          [day, 'h:mm'],
        ],
      ]
      for (const cells of rows) {
        const row = sheet.addRow(cells.map(([serial]) => serial))
        cells.forEach(([, format], i) => (row.getCell(i + 1).numFmt = format))
      }
      const path = join(dir, `times-${date1904}.xlsx`)
      await workbook.xlsx.writeFile(path)
      const fast = await readInputWorkbook({ path }, null)
      const fallback = await readInputWorkbook({ path }, null, { xlsxReader: 'exceljs' })
      expect(fast.fileErrors).toEqual([])
      expect(fast.rows).toEqual([
        { A: '14:30', B: '36:15:00', C: '12:00:00', D: '06:00:00' },
        { A: '2024-03-05T18:00:00', B: '2024-03-05', C: '00:00', D: '00:00' },
      ])
      expect(fallback.fileErrors).toEqual([])
      expect(fallback.rows).toEqual(fast.rows)
    })
  }
})

describe('links in cells', () => {
  it('a url or file column takes the link of a linked cell; other columns keep the words', async () => {
    const { generateInputWorkbook } = await import('../../src/core/workbooks')
    const { demoSeed } = await import('../../src/sandbox')
    const { officialTemplateSchemaSchema } = await import('../../src/shared/contract')
    const template = officialTemplateSchemaSchema.parse(
      demoSeed(1).officialTemplates!.find((t) => t.schema.templateId === 'document-digest')!.schema,
    )
    const path = join(dir, 'links.xlsx')
    await generateInputWorkbook(template, path)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(path)
    const ws = wb.getWorksheet('Input')!
    const headers = (ws.getRow(1).values as unknown[])
      .slice(1)
      .map((h) => String(h).replace(/ \*$/, ''))
    const col = (label: string) => headers.indexOf(label) + 1
    ws.getCell(2, col('Document')).value = {
      text: 'the report',
      hyperlink: 'https://files.example.com/q1.pdf',
    }
    ws.getCell(2, col('Title')).value = {
      text: 'Q1 report',
      hyperlink: 'https://example.com/not-this',
    }
    ws.getCell(2, col('Source page')).value = {
      text: 'Intranet',
      hyperlink: 'https://intranet.example.com/r?a=1&b=2',
    }
    ws.getCell(3, col('Document')).value = 'https://files.example.com/q2.pdf'
    ws.getCell(3, col('Title')).value = 'Q2 report'
    await wb.xlsx.writeFile(path)
    const result = await readInputWorkbook({ path }, template, { checkFiles: false })
    expect(result.fileErrors).toEqual([])
    expect(result.rowErrors).toEqual([])
    expect(result.rows[0]).toMatchObject({
      document: { url: 'https://files.example.com/q1.pdf' },
      title: 'Q1 report',
      sourceUrl: 'https://intranet.example.com/r?a=1&b=2',
    })
    expect(result.rows[1]).toMatchObject({
      document: { url: 'https://files.example.com/q2.pdf' },
      title: 'Q2 report',
    })
  })
})
