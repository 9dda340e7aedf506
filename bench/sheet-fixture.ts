/**
 * The sheet the workbook benchmarks read: 100,000 rows x 10 fields (every field type), written
 * with exceljs's streaming writer, optionally with one row in `invalidEvery` holding a bad cell;
 * and the floor (see below) that reading it is measured against.
 */
import { createReadStream } from 'node:fs'
import { createInflateRaw } from 'node:zlib'
import ExcelJS from 'exceljs'
import { openByteSource } from '../src/core/workbooks/byte-source'
import { openZip } from '../src/core/workbooks/read/xlsx/zip'
import { officialTemplateSchemaSchema, type OfficialTemplateSchema } from '../src/shared/contract'

export const ROWS = 100_000

const field = (key: string, type: string, extra: Record<string, unknown> = {}) => ({
  key,
  label: key,
  type,
  ...extra,
})
export const fields = [
  field('name', 'string', { required: true }),
  field('notes', 'text'),
  field('quantity', 'integer'),
  field('price', 'number'),
  field('active', 'boolean'),
  field('due', 'date'),
  field('tier', 'enum', { enumValues: ['bronze', 'silver', 'gold'] }),
  field('site', 'url'),
  field('contact', 'email'),
  field('attachment', 'file', { acceptedInputKinds: ['url', 'asset'] }),
]
export const schema: OfficialTemplateSchema = officialTemplateSchemaSchema.parse({
  templateId: 'bench',
  name: 'Bench',
  version: '1',
  fields,
  columns: fields.map((f, order) => ({ fieldKey: f.key, headerLabel: f.key, order })),
})

/**
 * Writes the sheet to `path`. With `invalidEvery`, one row in that many has a quantity that is
 * no whole number (a problem in one cell of the row, as a typing slip makes).
 */
export async function writeWorkbook(path: string, invalidEvery = 0) {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true })
  const ws = writer.addWorksheet('Input')
  ws.addRow(fields.map((f) => f.key)).commit()
  for (let i = 0; i < ROWS; i += 1) {
    ws.addRow([
      `Item ${i}`,
      `Some notes about item ${i}, long enough to be a sentence.`,
      invalidEvery > 0 && i % invalidEvery === invalidEvery - 1 ? `about ${i}` : i,
      i * 1.25,
      i % 2 === 0 ? 'yes' : 'no',
      new Date(Date.UTC(2026, i % 12, (i % 28) + 1)),
      ['bronze', 'silver', 'gold'][i % 3],
      `https://example.com/items/${i}`,
      `buyer${i}@example.com`,
      `https://example.com/files/${i}.pdf`,
    ]).commit()
  }
  ws.commit()
  await writer.commit()
}

/**
 * The floor: the work any reader of this file must do, with nothing else. It inflates the
 * shared strings and keeps each one's text (a cell of type s holds only an index into them),
 * then inflates the sheet and finds each cell's reference and value (a shared string looked up
 * by its index). No entities, types, styles, checks or worker. Written for this bench's file
 * (one text run per string, every cell with a reference), not for workbooks in general.
 */
export async function floor(path: string): Promise<number> {
  // Where each part's packed bytes are (from the zip directory: a few small reads).
  const bytes = await openByteSource({ path })
  const zip = await openZip(bytes)
  const packed = async (name: string) => {
    const entry = zip.find(name)!
    const header = await bytes.readAt(entry.localOffset, 30)
    const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
    return { start, end: start + entry.compressedSize - 1 }
  }
  const stringsAt = await packed('xl/sharedStrings.xml')
  const sheetAt = await packed('xl/worksheets/sheet1.xml')
  await bytes.close()
  const text = (at: { start: number; end: number }) => {
    const xml = createReadStream(path, { ...at, highWaterMark: 256 * 1024 }).pipe(
      createInflateRaw({ chunkSize: 64 * 1024 }),
    )
    xml.setEncoding('utf8')
    return xml as AsyncIterable<string>
  }
  const strings: string[] = []
  let carry = ''
  for await (const piece of text(stringsAt)) {
    const chunk = carry + piece
    let at = 0
    for (;;) {
      const si = chunk.indexOf('<si>', at)
      const end = si < 0 ? -1 : chunk.indexOf('</si>', si)
      if (end < 0) {
        at = si >= 0 ? si : Math.max(at, chunk.lastIndexOf('<'))
        break
      }
      const open = chunk.indexOf('>', chunk.indexOf('<t', si))
      strings.push(chunk.slice(open + 1, chunk.indexOf('</t>', open)))
      at = end + 5
    }
    carry = chunk.slice(at)
  }
  let cells = 0
  let rows = 0
  let seen = 0
  carry = ''
  for await (const piece of text(sheetAt)) {
    const chunk = carry + piece
    let at = 0
    /** The next row's start tag at or after `at` (-1: none in this chunk). */
    let nextRow = -2
    for (;;) {
      const c = chunk.indexOf('<c ', at)
      const gt = c < 0 ? -1 : chunk.indexOf('>', c)
      const end = gt < 0 ? -1 : chunk.indexOf('</c>', gt)
      // The rows started before this cell (or before the cut, where the chunk is cut).
      const cut = end >= 0 ? c : c >= 0 ? c : Math.max(at, chunk.lastIndexOf('<'))
      if (nextRow === -2 || (nextRow >= 0 && nextRow < at)) nextRow = chunk.indexOf('<row', at)
      while (nextRow >= 0 && nextRow < cut) {
        rows += 1
        nextRow = chunk.indexOf('<row', nextRow + 4)
      }
      if (end < 0) {
        at = cut
        break
      }
      const r = chunk.indexOf('r="', c) + 3
      const ref = chunk.slice(r, chunk.indexOf('"', r))
      const v = chunk.indexOf('<v>', gt)
      const raw = chunk.slice(v + 3, chunk.indexOf('</v>', v))
      const shared = chunk.indexOf(' t="s"', c)
      const value = shared >= 0 && shared < gt ? strings[Number(raw)]! : raw
      seen += ref.length + value.length
      cells += 1
      at = end + 4
    }
    carry = chunk.slice(at)
  }
  if (cells < ROWS * fields.length || seen === 0) throw new Error(`the floor found ${cells} cells`)
  return rows - 1
}
