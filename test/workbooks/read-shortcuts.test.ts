// The reader's shortcuts for the usual case (a cell's start tag read in one pass, the shared
// strings' text kept outside the heap in blocks, a yes/no or choice column's words looked up)
// answer exactly as the general way does, including where the usual shape stops.
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { CellScanner } from '../../src/core/workbooks/read/xlsx/cell-scanner'
import { keptTextChunks, textChunks } from '../../src/core/workbooks/read/xlsx/part-text'
import { schemaOf } from './support/schemas'
import { makeXlsx } from './support/zip'

const inline = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`

async function text(chunks: AsyncIterable<string>) {
  let out = ''
  for await (const chunk of chunks) out += chunk
  return out
}

async function* cut(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield Buffer.from(bytes.subarray(at, at + size))
}

/** Every sequence of up to three of `parts`. */
function tags(parts: string[]): string[] {
  const out = ['']
  for (let length = 0; length < 3; length += 1)
    for (const tag of out.filter((t) => t.split('|').length === length + 1))
      for (const part of parts) out.push(`${tag}${part}|`)
  return out.map((t) => t.replaceAll('|', ''))
}

describe('the reader in the usual case and beside it', () => {
  it('reads cell and row start tags in one pass exactly as attribute by attribute', () => {
    const general = new CellScanner(null as never, [], false)
    const fast = new CellScanner(null as never, [], false)
    const state = (s: CellScanner) => [s.column, s.typeFrom, s.typeTo, s.style, s.rowNumber]
    const cellParts = [' r="A12"', ' r="XFE1"', ' r="AAAA1"', ' r="a1"', ' r="$B$2"', ' r="B"']
    cellParts.push(' s="1"', ' s="0000000001"', ' s="12345678901"', ' t="s"', ' t="inlineStr"')
    cellParts.push(' t="S"', "t='n'", '  t="s"', ' t = "s"', ' r=""', '/')
    for (const tag of tags(cellParts)) {
      const xml = `<c${tag}><v>1</v></c>`
      const gt = xml.indexOf('>')
      const to = xml.charCodeAt(gt - 1) === 47 ? gt - 1 : gt
      general.scanAttributes(xml, 2, to, false)
      fast.scanCell(xml, 2, to)
      expect(state(fast), xml).toEqual(state(general))
    }
    const rowParts = [' r="12"', ' r=""', ' r="1234567890"', ' r="123456789"', ' spans="1:10"']
    rowParts.push(' customFormat="1"', 'r="9"', ' r = "3"', ' r="x1"', '\tr="5"', ' ar="6"')
    rowParts.push(' foo="a r"', ' /')
    for (const tag of tags(rowParts)) {
      const xml = `<row${tag}><c r="A1"><v>1</v></c></row>`
      general.scanAttributes(xml, 4, xml.indexOf('>'), true)
      fast.scanRow(xml, 4, xml.indexOf('>'))
      expect(fast.rowNumber, xml).toBe(general.rowNumber)
    }
  })

  it('reads every shape of cell start tag as the general reading does', async () => {
    const letters = 'ABCDEFGHI'
    const header = `<row r="1">${[...letters].map((l) => inline(`${l}1`, l)).join('')}</row>`
    const cells = [
      '<c r="A2" s="1"><v>45356</v></c>',
      '<c r="B2" s="1" t="s"><v>1</v></c>',
      '<c r="C2" t="s" s="1"><v>1</v></c>',
      '<c r="d2" t="s"><v>1</v></c>',
      '<c r="$E$2" t="s"><v>1</v></c>',
      '<c r="F2" s="0000000001"><v>45356</v></c>',
      '<c r="G2"  t="s"><v>1</v></c>',
      "<c r='H2' t='s'><v>0</v></c>",
      '<c r="I2" t="s" />',
    ]
    const result = await readInputWorkbook(
      {
        bytes: makeXlsx({
          sheet: `${header}<row r="2">${cells.join('')}</row>`,
          sharedStrings: ['one', 'two'],
          styles: { xfs: [0, 14] },
        }),
        filename: 'tags.xlsx',
      },
      null,
    )
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([
      {
        A: '2024-03-05',
        B: 'two',
        C: 'two',
        D: 'two',
        E: 'two',
        F: '2024-03-05',
        G: 'two',
        H: 'one',
      },
    ])
  })

  it('keeps the shared strings’ text whole, whatever blocks and chunks it comes in', async () => {
    const ascii = 'a'.repeat(1536 * 1024 - 3)
    const parts = [
      Buffer.from(`${ascii}é${'x'.repeat(2_000_000)}😀 end`, 'utf8'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${ascii}${ascii}zé`, 'utf8')]),
      Buffer.from(`bad \xff\xfe bytes${ascii}`, 'latin1'),
    ]
    for (const part of parts)
      for (const size of [4099, 65_536, 262_144, 1_100_000]) {
        const expected = await text(textChunks(cut(part, part.length)))
        expect(await text(keptTextChunks(cut(part, size)))).toBe(expected)
        expect(await text(textChunks(cut(part, size)))).toBe(expected)
      }
  })

  it('answers the usual words of a yes/no and a choice column as checkCell does', async () => {
    const schema = schemaOf('words', 'Words', [
      { key: 'ok', label: 'OK', type: 'boolean' },
      { key: 'tier', label: 'Tier', type: 'enum', enumValues: ['Gold', 'silver', 'SILVER'] },
    ])
    const words = [
      ['Yes', 'Gold'],
      ['no', 'gold'],
      [' YES ', 'GOLD '],
      ['N', 'silver'],
      ['x', 'SILVER'],
      ['0', 'Silver'],
      ['maybe', 'bronze'],
    ]
    const sheet =
      `<row r="1">${inline('A1', 'OK')}${inline('B1', 'Tier')}</row>` +
      words
        .map(
          ([a, b], i) =>
            `<row r="${i + 2}">${inline(`A${i + 2}`, a!)}${inline(`B${i + 2}`, b!)}</row>`,
        )
        .join('')
    const result = await readInputWorkbook(
      { bytes: makeXlsx({ sheet, sharedStrings: [] }), filename: 'words.xlsx' },
      schema,
    )
    expect(result.rows.slice(0, 6)).toEqual([
      { ok: true, tier: 'Gold' },
      { ok: false, tier: 'Gold' },
      { ok: true, tier: 'Gold' },
      { ok: false, tier: 'silver' },
      { ok: true, tier: 'silver' },
      { ok: false, tier: 'silver' },
    ])
    expect(result.rowErrors.map((e) => e.error)).toEqual([
      "Row 8, OK: 'maybe' is not yes or no",
      "Row 8, Tier: 'bronze' is not one of the choices (Gold, silver, SILVER)",
    ])
  })
})
