import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { generateInputWorkbook, readInputWorkbook } from '../../src/core/workbooks'
import { demoSeed } from '../../src/sandbox'
import { FIELD_TYPES } from '../../src/sandbox/seed'
import type { OfficialTemplateSchema, SchemaField } from '../../src/shared/contract'
import { officialTemplateSchemaSchema } from '../../src/shared/contract'

const dir = mkdtempSync(join(tmpdir(), 'sr-workbooks-'))
const templates: OfficialTemplateSchema[] = (demoSeed(1).officialTemplates ?? []).map((t) =>
  officialTemplateSchemaSchema.parse(t.schema),
)

beforeAll(() => {
  writeFileSync(join(dir, 'invoice.pdf'), '%PDF-1.4 test')
  writeFileSync(join(dir, 'notes.txt'), 'plain notes')
})

/** A valid value as a user would type it, per field type. */
function sample(field: SchemaField): string | number | boolean | Date {
  switch (field.type) {
    case 'integer':
      return 3
    case 'number':
      return 2.5
    case 'boolean':
      return 'yes'
    case 'date':
      return new Date(Date.UTC(2026, 2, 5))
    case 'enum':
      return field.enumValues[0] ?? 'x'
    case 'url':
      return 'https://example.com/page'
    case 'email':
      return 'ada@example.com'
    case 'file':
      if (field.acceptedInputKinds.includes('asset') || field.acceptedInputKinds.length === 0) {
        return field.acceptedMimeTypes.some((m) => m.includes('pdf')) ? 'invoice.pdf' : 'notes.txt'
      }
      return field.acceptedInputKinds.includes('url') ? 'https://example.com/file.pdf' : 'some text'
    default:
      return field.examples[0] ?? 'some text'
  }
}

async function fill(
  template: OfficialTemplateSchema,
  path: string,
  edit?: (ws: ExcelJS.Worksheet) => void,
) {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.readFile(path)
  const ws = wb.getWorksheet('Input')!
  const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String)
  for (let r = 2; r <= 3; r += 1) {
    headers.forEach((header, i) => {
      const field = template.fields.find(
        (f) =>
          header.replace(/ \*$/, '') ===
          (template.columns.find((c) => c.fieldKey === f.key)?.headerLabel || f.label),
      )
      if (field) ws.getCell(r, i + 1).value = sample(field)
    })
  }
  const run = wb.getWorksheet('Run settings')
  if (run) {
    for (let r = 2; r <= run.rowCount; r += 1) {
      const key = String(run.getCell(r, 3).value)
      const field = template.fields.find((f) => f.key === key)
      if (field) run.getCell(r, 2).value = sample(field)
    }
  }
  edit?.(ws)
  const out = path.replace('.xlsx', '-filled.xlsx')
  await wb.xlsx.writeFile(out)
  return out
}

describe('input workbooks for the demo templates', () => {
  it('cover every field type between them', () => {
    const types = new Set(templates.flatMap((t) => t.fields.map((f) => f.type)))
    for (const type of FIELD_TYPES) {
      expect(types).toContain(type)
    }
  })

  for (const template of templates) {
    it(`round-trips ${template.templateId}: generated, filled, valid`, async () => {
      const path = join(dir, `${template.templateId}.xlsx`)
      await generateInputWorkbook(template, path)
      const filled = await fill(template, path)
      const result = await readInputWorkbook({ path: filled }, template)
      expect(result.fileErrors).toEqual([])
      expect(result.rowErrors).toEqual([])
      expect(result.valid).toBe(true)
      expect(result.rows).toHaveLength(2)
      expect(result.rowNumbers).toEqual([2, 3])
      for (const field of template.fields.filter((f) => f.type === 'date')) {
        const value = result.rows[0]![field.key]
        expect(field.multiValue ? value : [value]).toEqual(['2026-03-05'])
      }
    })
  }
})

describe('row problems name the cell', () => {
  const template = templates.find((t) => t.fields.some((f) => f.type === 'integer'))!
  const intField = template.fields.find((f) => f.type === 'integer' && f.scope !== 'run')!

  it('reports a word in a whole-number column with its spreadsheet row', async () => {
    const path = join(dir, 'typed.xlsx')
    await generateInputWorkbook(template, path)
    const column = template.columns
      .filter((c) => template.fields.find((f) => f.key === c.fieldKey)?.scope !== 'run')
      .sort((a, b) => a.order - b.order)
      .findIndex((c) => c.fieldKey === intField.key)
    const filled = await fill(template, path, (ws) => {
      ws.getCell(3, column + 1).value = 'ten'
    })
    const result = await readInputWorkbook({ path: filled }, template)
    expect(result.valid).toBe(false)
    expect(result.rowErrors).toContainEqual({
      rowIndex: 1,
      fieldKey: intField.key,
      error: `Row 3, ${intField.label}: 'ten' is not a whole number`,
    })
  })
})

describe('bad files get one clear file error', () => {
  const template = templates[0]!
  const cases: [string, string | Buffer, RegExp][] = [
    ['empty.xlsx', '', /empty/],
    ['text.xlsx', 'just some text, not a spreadsheet', /not a spreadsheet/],
    [
      'old.xlsx',
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]),
      /old Excel 97-2003/,
    ],
    [
      'broken.xlsx',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]),
      /could not be read/,
    ],
  ]
  for (const [name, content, message] of cases) {
    it(name, async () => {
      const path = join(dir, name)
      writeFileSync(path, content)
      const result = await readInputWorkbook({ path }, template)
      expect(result.valid).toBe(false)
      expect(result.fileErrors.join(' ')).toMatch(message)
    })
  }

  it('an empty workbook says there is nothing to send', async () => {
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('Input')
    const path = join(dir, 'blank.xlsx')
    await wb.xlsx.writeFile(path)
    const result = await readInputWorkbook({ path }, template)
    expect(result.valid).toBe(false)
    expect(result.fileErrors[0]).toMatch(/no header row|no rows/)
  })
})

describe('csv', () => {
  const template = templates.find((t) => t.templateId === 'row-echo')!
  it('reads semicolons, a BOM, quotes and keeps leading zeros; unknown columns are reported', async () => {
    const path = join(dir, 'echo.csv')
    writeFileSync(
      path,
      '\ufeffMessage;Sequence number;Colour\n"hello; world";007;red\n\n"line\nbreak";2;blue\n',
    )
    const result = await readInputWorkbook({ path }, template)
    expect(result.fileErrors).toEqual([expect.stringMatching(/Column C “Colour” is not a field/)])
    expect(result.rows[0]).toEqual({ message: 'hello; world', sequence: 7 })
    expect(result.rows[1]).toEqual({ message: 'line\nbreak', sequence: 2 })
    expect(result.rowNumbers).toEqual([2, 4])
  })

  it('streams a 100,000-character cell', async () => {
    const path = join(dir, 'long.csv')
    writeFileSync(path, `message\n${'x'.repeat(100_000)}\n`)
    const result = await readInputWorkbook({ path }, template)
    expect(result.valid).toBe(true)
    expect((result.rows[0]!.message as string).length).toBe(100_000)
  })
})

describe('the schema a generated workbook carries', () => {
  it('comes back whole from the hidden sheet, even when it spans several cells', async () => {
    const { schemaFromWorkbookMapping } =
      await import('../../src/core/flows/listings/buyer-listing')
    const base = templates[0]!
    // Enough enum values that the JSON is longer than one cell may hold.
    const many = Array.from({ length: 6000 }, (_, i) => `choice number ${i}`)
    const big: OfficialTemplateSchema = {
      ...base,
      templateId: 'big-listing',
      fields: base.fields.map((f, i) => (i === 0 ? { ...f, type: 'enum', enumValues: many } : f)),
    }
    const path = join(dir, 'big-listing.xlsx')
    await generateInputWorkbook(big, path, {
      listing: { listingId: 'big-listing', listingVersionId: 'v1' },
    })
    const back = await schemaFromWorkbookMapping(path, 'big-listing')
    expect(back?.fields).toEqual(big.fields)
    expect(back?.columns).toEqual(big.columns)
    expect(await schemaFromWorkbookMapping(path, 'another-listing')).toBeNull()
  })
})

describe('a workbook from before the hidden sheet carried the schema', () => {
  it('still gives its columns, with the types unknown', async () => {
    const { schemaFromWorkbookMapping } =
      await import('../../src/core/flows/listings/buyer-listing')
    const base = templates[0]!
    const path = join(dir, 'older-listing.xlsx')
    await generateInputWorkbook({ ...base, templateId: 'older-listing' }, path)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(path)
    const mapping = book.getWorksheet('_fields')!
    for (let r = mapping.rowCount; r >= 1; r -= 1)
      if (mapping.getCell(r, 1).text === 'schema') mapping.spliceRows(r, 1)
    await book.xlsx.writeFile(path)
    const back = await schemaFromWorkbookMapping(path, 'older-listing')
    expect(back?.columns.length).toBeGreaterThan(0)
    expect(new Set(back?.fields.map((f) => f.type))).toEqual(new Set(['generic']))
  })
})
