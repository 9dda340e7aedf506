// Shared strings past the reader's memory budget go to a temporary file: read back, every string
// is the one kept in memory would be (entities, rich text, other scripts, a string longer than a
// write), and the file's handle goes on close.
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { openByteSource } from '../../src/core/workbooks/byte-source'
import { readSharedStrings } from '../../src/core/workbooks/read/xlsx/shared-strings'
import { openZip } from '../../src/core/workbooks/read/xlsx/zip'

const dir = mkdtempSync(join(tmpdir(), 'sr-strings-'))
const long = 'long text, past one write to the file. '.repeat(40_000)
const strings: ExcelJS.CellValue[] = [
  'plain',
  'a & b < c > "d"',
  'unicode ✓ 漢字 😀',
  'line\nbreak',
  { richText: [{ text: 'rich ' }, { text: 'text', font: { bold: true } }] },
  '   spaced   ',
  long,
  ...Array.from({ length: 300 }, (_, i) => `row ${i} ${'x'.repeat(i)}`),
]

/** Only ASCII: the part's text goes to the file whole, each string read where it lies in it. */
const ascii: ExcelJS.CellValue[] = [
  'plain',
  'a & b < c',
  '  spaced  ',
  long,
  ...Array.from({ length: 2_000 }, (_, i) => `ascii row ${i} ${'y'.repeat(i % 97)}`),
]

async function workbook(values = strings, name = 'strings.xlsx'): Promise<string> {
  const path = join(dir, name)
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Input')
  sheet.addRow(['Message'])
  for (const value of values) sheet.addRow([value])
  await book.xlsx.writeFile(path)
  return path
}

async function readAll(path: string, budget: number, count = strings.length): Promise<string[]> {
  const bytes = await openByteSource({ path })
  try {
    const zip = await openZip(bytes)
    const list = await readSharedStrings(zip, zip.find('xl/sharedStrings.xml'), budget)
    try {
      const out: string[] = []
      // Out of order too: the last, then the first, then each in turn, then each backwards
      // (the file is read a window at a time from the string asked for).
      out.push(list.at(count), list.at(0))
      for (let i = 0; i <= count; i += 1) out.push(list.at(i))
      for (let i = count; i >= 0; i -= 1) out.push(list.at(i))
      return out
    } finally {
      list.close()
    }
  } finally {
    await bytes.close()
  }
}

describe('shared strings past the memory budget', () => {
  it('read back from the file are the same strings, whatever the budget', async () => {
    const path = await workbook()
    const inMemory = await readAll(path, Number.MAX_SAFE_INTEGER)
    expect(inMemory).toContain(long)
    expect(inMemory).toContain('rich text')
    for (const budget of [0, 40, 5_000]) expect(await readAll(path, budget)).toEqual(inMemory)
    // The file is gone from the temporary folder as soon as it is open.
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('skill-runner-strings-'))).toEqual([])
  })

  it('read back from a part all in ASCII, written to the file whole, are the same strings', async () => {
    const path = await workbook(ascii, 'ascii.xlsx')
    const inMemory = await readAll(path, Number.MAX_SAFE_INTEGER, ascii.length)
    expect(inMemory).toContain(long)
    expect(inMemory).toContain('a & b < c')
    expect(inMemory).toContain('ascii row 1999 ' + 'y'.repeat(1999 % 97))
    for (const budget of [0, 40, 70_000])
      expect(await readAll(path, budget, ascii.length)).toEqual(inMemory)
  })
})
