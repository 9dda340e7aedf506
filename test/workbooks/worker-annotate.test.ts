import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  annotateWorkbook,
  generateInputWorkbook,
  parseInputWorkbook,
  readInputWorkbook,
} from '../../src/core/workbooks'
import { builtWorkerArgv } from '../../src/core/workbooks/worker/run-in-worker'
import { demoSeed } from '../../src/sandbox'
import {
  officialTemplateSchemaSchema,
  type OfficialTemplateSchema,
} from '../../src/shared/contract'
import { makeZip, sheetXml, xlsxEntries } from './support/zip'

const dir = mkdtempSync(join(tmpdir(), 'sr-worker-'))
const templates = (demoSeed(1).officialTemplates ?? []).map((t) =>
  officialTemplateSchemaSchema.parse(t.schema),
)
const echo = templates.find((t) => t.templateId === 'row-echo')!
const other = templates.find((t) => t.templateId !== 'row-echo')!

/** A generated row-echo workbook with rows filled in (header labels as generated). */
async function echoWorkbook(
  name: string,
  rows: unknown[][],
  edit?: (ws: ExcelJS.Worksheet) => void,
) {
  const path = join(dir, name)
  await generateInputWorkbook(echo, path)
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.readFile(path)
  const ws = wb.getWorksheet('Input')!
  rows.forEach((row, r) =>
    row.forEach((v, c) => (ws.getCell(r + 2, c + 1).value = v as ExcelJS.CellValue)),
  )
  edit?.(ws)
  await wb.xlsx.writeFile(path)
  return path
}

let headers: string[] = []
beforeAll(async () => {
  const path = await echoWorkbook('headers.xlsx', [])
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.readFile(path)
  headers = (wb.getWorksheet('Input')!.getRow(1).values as unknown[]).slice(1).map(String)
})

/**
 * The header row, 999,999 rows `row N | (empty) | N`, then a row whose number is text: the sheet
 * written byte by byte, with the cells ExcelJS's streaming writer makes (`t="str"` text, no
 * shared strings). ExcelJS took about 10 s of CPU for it, this about 1 s.
 */
function millionRows(): Buffer {
  const text = (ref: string, value: string) =>
    `<c r="${ref}" t="str"><v>${value.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</v></c>`
  const [head, tail] = sheetXml('|').split('|') as [string, string]
  const sheet = Buffer.allocUnsafe(110 * 1024 * 1024)
  let at = sheet.write(head, 0, 'latin1')
  at += sheet.write(
    `<row r="1">${headers.map((h, c) => text(`${String.fromCharCode(65 + c)}1`, h)).join('')}</row>`,
    at,
  )
  for (let r = 2; r <= 1_000_000; r += 1)
    at += sheet.write(
      `<row r="${r}">${text(`A${r}`, `row ${r - 1}`)}<c r="C${r}"><v>${r - 1}</v></c></row>`,
      at,
      'latin1',
    )
  const last = `<row r="1000001">${text('A1000001', 'last row')}${text('C1000001', 'not a number')}</row>`
  at += sheet.write(last + tail, at, 'latin1')
  const entries = xlsxEntries({ sheet: '' })
  const part = entries.findIndex((e) => e.name === 'xl/worksheets/sheet1.xml')
  entries[part] = { ...entries[part]!, data: sheet.subarray(0, at), level: 1 }
  return makeZip(entries)
}

describe('parsing in a worker thread', () => {
  it('gives the same answer as reading on the calling thread, with progress', async () => {
    const rows = Array.from({ length: 4500 }, (_, i) => ['hello', null, i % 7 === 0 ? 'seven' : i])
    const path = await echoWorkbook('many.xlsx', rows)
    const progress: number[] = []
    const inWorker = await parseInputWorkbook({ path }, echo, {
      onProgress: (n) => progress.push(n),
    })
    const inline = await readInputWorkbook({ path }, echo)
    expect(inWorker).toEqual(inline)
    expect(inWorker.rowErrors.length).toBeGreaterThan(600)
    expect(progress).toEqual([2000, 4000])
  })

  it('reads on the calling thread when the worker cannot start', async () => {
    const path = await echoWorkbook('no-worker.xlsx', [['hello', null, 1]])
    const result = await parseInputWorkbook({ path }, echo, {
      workerFile: join(dir, 'missing-worker.js'),
    })
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ message: 'hello', sequence: 1 }])
  })

  it('starts a built worker without the parent’s preloads (tsx), keeping its other flags', () => {
    expect(
      builtWorkerArgv([
        '--import',
        'tsx',
        '--enable-source-maps',
        '--require=./hook.cjs',
        '-r',
        'x',
        '--loader',
        'y',
        '--experimental-loader=z',
        '--no-warnings',
      ]),
    ).toEqual(['--enable-source-maps', '--no-warnings'])
    expect(builtWorkerArgv(['--enable-source-maps'])).toBeUndefined()
    expect(builtWorkerArgv([])).toBeUndefined()
  })

  it('stops when cancelled', async () => {
    const path = await echoWorkbook('cancel.xlsx', [['hello', null, 1]])
    const controller = new AbortController()
    const pending = parseInputWorkbook({ path }, echo, { signal: controller.signal })
    controller.abort(new Error('the user cancelled'))
    await expect(pending).rejects.toThrow('the user cancelled')
  })

  it('streams a 1,000,000-row sheet inside a 256 MB heap', async () => {
    const path = join(dir, 'million.xlsx')
    writeFileSync(path, millionRows())
    const result = await parseInputWorkbook({ path }, echo, { keepRows: false, maxMemoryMb: 256 })
    expect(result.fileErrors).toEqual([])
    expect(result.rowCount).toBe(1_000_000)
    expect(result.rowErrors).toEqual([
      {
        error: "Row 1000001, Sequence number: 'not a number' is not a whole number",
        fieldKey: 'sequence',
        rowIndex: 999_999,
      },
    ])
  }, 120_000)

  it('a workbook too big for the memory ceiling ends with a file error, not a crash', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => [
      `a fairly long message number ${i}`,
      'details',
      i,
    ])
    const path = await echoWorkbook('heavy.xlsx', rows)
    const result = await parseInputWorkbook({ path }, echo, { keepRows: true, maxMemoryMb: 8 })
    expect(result.valid).toBe(false)
    expect(result.fileErrors[0]).toMatch(/too large to check|could not be read/)
  }, 60_000)
})

describe('the hidden mapping sheet', () => {
  it('keeps a renamed header on its field', async () => {
    const path = await echoWorkbook('renamed.xlsx', [['hello', null, 3]], (ws) => {
      ws.getCell('C1').value = 'My running number'
    })
    const result = await readInputWorkbook({ path }, echo)
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ message: 'hello', sequence: 3 }])
  })

  it('says so when the workbook was made for another template', async () => {
    const path = await echoWorkbook('wrong-template.xlsx', [['hello', null, 3]])
    const result = await readInputWorkbook({ path }, other)
    expect(result.fileErrors[0]).toMatch(/made for the template “row-echo”/)
  })
})

describe('real hard files', () => {
  it('a password-protected workbook (real encryption) says so', async () => {
    const path = join(__dirname, '../fixtures/password-protected.xlsx')
    const result = await readInputWorkbook({ path }, echo)
    expect(result.fileErrors).toEqual([expect.stringMatching(/protected with a password to open/)])
    const bytes = await parseInputWorkbook({ bytes: readFileSync(path), filename: 'x.xlsx' }, echo)
    expect(bytes.fileErrors[0]).toMatch(/password/)
  })

  it('streams a 100,000-character cell in an xlsx', async () => {
    const path = await echoWorkbook('long-cell.xlsx', [['y'.repeat(100_000), null, 1]])
    const result = await parseInputWorkbook({ path }, echo)
    expect(result.valid).toBe(true)
    expect((result.rows[0]!.message as string).length).toBe(100_000)
  })
})

describe('the annotated copy', () => {
  async function open(path: string) {
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(path)
    return wb
  }

  for (const mode of ['whole', 'streamed'] as const) {
    it(`marks bad cells red with the problem as a note, and lists every problem (${mode})`, async () => {
      const path = await echoWorkbook(`bad-${mode}.xlsx`, [
        ['fine', null, 1],
        [null, 'some details', 'ten'],
        ['also fine', null, 3],
      ])
      const checked = await readInputWorkbook({ path }, echo)
      expect(checked.rowErrors).toHaveLength(2)
      const out = join(dir, `bad-${mode}.checked.xlsx`)
      const done = await annotateWorkbook(
        path,
        checked,
        out,
        mode === 'streamed' ? { loadWholeMaxBytes: 0 } : {},
      )
      expect(done.markedCells).toBe(2)
      const wb = await open(out)
      const input = wb.getWorksheet('Input')!
      expect(input.getCell('A2').value).toBe('fine')
      for (const address of ['A3', 'C3'])
        expect((input.getCell(address).fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFC7CE')
      const noteText = (address: string) => {
        const note = input.getCell(address).note as unknown
        return typeof note === 'string'
          ? note
          : (note as { texts: { text: string }[] }).texts.map((t) => t.text).join('')
      }
      expect(noteText('C3')).toBe("Row 3, Sequence number: 'ten' is not a whole number")
      expect(noteText('A3')).toMatch(/^Row 3, Message: .*required/)
      expect((input.getCell('B3').fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb).not.toBe(
        'FFFFC7CE',
      )
      const errors = wb.getWorksheet('Errors')!
      const listed = [2, 3].map((r) => errors.getRow(r).values as unknown[])
      expect(listed.map((v) => (v[1] as { text: string }).text)).toEqual(['A3', 'C3'])
      expect((listed[1]![1] as { hyperlink: string }).hyperlink).toBe("#'Input'!C3")
      expect(listed[1]![2]).toBe("Row 3, Sequence number: 'ten' is not a whole number")
      if (mode === 'whole') expect(wb.getWorksheet('Instructions')).toBeDefined()
    })
  }

  it('says so when the folder of the copy does not exist (and does not hang)', async () => {
    const path = join(dir, 'bad.csv')
    writeFileSync(path, 'Message,Sequence number\nhi,1\n')
    const checked = await readInputWorkbook({ path }, echo)
    await expect(annotateWorkbook(path, checked, join(dir, 'missing', 'x.xlsx'))).rejects.toThrow(
      /does not exist/,
    )
  })

  it('a streaming writer that the disk refuses rejects instead of waiting forever', async () => {
    const { streamingWorkbook } = await import('../../src/core/workbooks')
    const book = await streamingWorkbook(dir) // a folder, not a file: the disk says no
    book.writer.addWorksheet('x').addRow(['a']).commit()
    await expect(book.commit()).rejects.toThrow(/EISDIR|illegal operation/)
  })

  it('marks the sheet the check read, even after a visible sheet of notes', async () => {
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('Notes').addRow(['just notes'])
    const input = wb.addWorksheet('Input')
    input.addRow(headers)
    input.addRow(['fine', null, 'nine'])
    const path = join(dir, 'notes-first.xlsx')
    await wb.xlsx.writeFile(path)
    const checked = await readInputWorkbook({ path }, echo)
    expect(checked.rowErrors.map((e) => e.error)).toEqual([
      "Row 2, Sequence number: 'nine' is not a whole number",
    ])
    for (const loadWholeMaxBytes of [undefined, 0]) {
      const out = join(dir, `notes-first-${loadWholeMaxBytes ?? 'whole'}.checked.xlsx`)
      await annotateWorkbook(
        path,
        checked,
        out,
        loadWholeMaxBytes === 0 ? { loadWholeMaxBytes } : {},
      )
      const copy = await open(out)
      expect(
        (copy.getWorksheet('Input')!.getCell('C2').fill as ExcelJS.FillPattern).fgColor?.argb,
      ).toBe('FFFFC7CE')
      expect(copy.getWorksheet('Notes')!.getCell('A1').value).toBe('just notes')
    }
  })

  it('turns a csv into an annotated xlsx', async () => {
    const path = join(dir, 'bad.csv')
    writeFileSync(path, 'Message,Sequence number\nhi,1\nhey,x\n')
    const checked = await readInputWorkbook({ path }, echo)
    const out = join(dir, 'bad.csv.checked.xlsx')
    await annotateWorkbook(path, { ...checked, fileErrors: ['a file problem'] }, out)
    const wb = await open(out)
    const cell = wb.getWorksheet('Input')!.getCell('B3')
    expect(cell.value).toBe('x')
    expect((cell.fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFC7CE')
    expect(wb.getWorksheet('Errors')!.getRow(2).values).toEqual([
      undefined,
      'File',
      'a file problem',
    ])
  })
})

export type { OfficialTemplateSchema }
