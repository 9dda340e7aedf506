// csv as Excel, LibreOffice and others save it: encodings, line ends, separators.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'

const read = (bytes: Buffer, name = 'input.csv') =>
  readInputWorkbook({ bytes, filename: name }, null)
const text = 'Name;Note\r\ncafé crème;naïve – “quoted”\r\n'

describe('csv encodings', () => {
  it('reads UTF-8 with and without a BOM, and says which it used', async () => {
    for (const bom of [true, false]) {
      const result = await read(
        Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text)]),
      )
      expect(result.fileErrors).toEqual([])
      expect(result.rows).toEqual([{ Name: 'café crème', Note: 'naïve – “quoted”' }])
      expect(result.notices).toEqual([
        `Read as UTF-8${bom ? ' (with BOM)' : ''} text, fields separated by “;”.`,
      ])
    }
  })

  it('reads UTF-16 LE and BE by their BOM (Excel’s Unicode Text, tab-separated)', async () => {
    const tabbed = text.replace(/;/g, '\t')
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tabbed, 'utf16le')])
    const be = Buffer.from(le)
    be.swap16()
    for (const [bytes, name] of [
      [le, 'UTF-16 LE'],
      [be, 'UTF-16 BE'],
    ] as const) {
      const result = await read(bytes, 'unicode.txt')
      expect(result.fileErrors).toEqual([])
      expect(result.rows).toEqual([{ Name: 'café crème', Note: 'naïve – “quoted”' }])
      expect(result.notices?.[0]).toBe(`Read as ${name} text, fields separated by tab.`)
    }
  })

  it('reads Windows-1252 only when the bytes are not UTF-8, and says so', async () => {
    const latin = Buffer.from(text.replace('–', '-').replace('“', '"').replace('”', '"'), 'latin1')
    const result = await read(latin)
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ Name: 'café crème', Note: 'naïve - "quoted"' }])
    expect(result.notices?.[0]).toMatch(/^Read as Windows-1252 \(it is not UTF-8\) text/)
    // Windows-1252's own letters (€, curly quotes) come out right.
    const cp1252 = await read(Buffer.from([0x41, 0x0a, 0x80, 0x20, 0x93, 0x78, 0x94, 0x0a]))
    expect(cp1252.rows).toEqual([{ A: '€ “x”' }])
  })

  it('tells UTF-8 from Windows-1252 when a character falls on a 1 MB piece boundary of a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csv-encoding-'))
    try {
      // The header and one row whose long cell puts "é" (2 bytes), "€" (3) or "𝄞" (4) across the
      // first piece's end, each byte of it at a time; then the same with its last byte broken.
      const header = 'Name\n'
      for (const char of ['é', '€', '𝄞']) {
        const bytes = Buffer.from(char)
        for (let before = 1; before < bytes.length; before += 1) {
          const filler = 'a'.repeat(1024 * 1024 - header.length - before)
          const good = Buffer.concat([Buffer.from(header + filler), bytes, Buffer.from('\n')])
          const path = join(dir, `good-${bytes.length}-${before}.csv`)
          writeFileSync(path, good)
          const result = await readInputWorkbook({ path }, null)
          expect(result.notices?.[0]).toMatch(/^Read as UTF-8 text/)
          expect(result.rows[0]!.Name).toBe(filler + char)
          const broken = Buffer.from(good)
          broken[good.length - 2] = 0x41
          writeFileSync(path, broken)
          const latin = await readInputWorkbook({ path }, null)
          expect(latin.notices?.[0]).toMatch(/^Read as Windows-1252/)
        }
      }
      // A character cut by the end of the file is not UTF-8 either.
      const cut = join(dir, 'cut.csv')
      writeFileSync(cut, Buffer.concat([Buffer.from('Name\nab'), Buffer.from('€').subarray(0, 2)]))
      expect((await readInputWorkbook({ path: cut }, null)).notices?.[0]).toMatch(/^Read as Windows-1252/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('never passes a replacement character on silently', async () => {
    const result = await read(Buffer.from('Name\ncaf\uFFFD\nok\nx\uFFFDy\n'))
    expect(result.valid).toBe(false)
    expect(result.fileErrors[0]).toMatch(/^Row 2, column A holds “\uFFFD”.*\(2 cells have it\)/)
  })
})

describe('csv layout', () => {
  it('ends lines at CR, LF or CRLF, also across chunks', async () => {
    for (const end of ['\r', '\n', '\r\n']) {
      const result = await read(Buffer.from(['A,B', '1,2', '"multi', 'line",4', ''].join(end)))
      expect(result.fileErrors).toEqual([])
      expect(result.rows).toEqual([
        { A: '1', B: '2' },
        { A: `multi${end}line`, B: '4' },
      ])
      expect(result.rowNumbers).toEqual([2, 3])
    }
  })

  it('follows Excel’s sep= first line, which is no row', async () => {
    const result = await read(Buffer.from('sep=|\r\nA|B\r\n1,5|x;y\r\n'))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ A: '1,5', B: 'x;y' }])
    expect(result.rowNumbers).toEqual([2])
    expect(result.notices?.[0]).toMatch(/separated by “\|” \(as its sep= line says\)/)
  })

  it('keeps a doubled quote that falls on a chunk boundary', async () => {
    // 1 MB chunks (memory source): put the "" pair across the first boundary.
    const head = 'A\n"'
    const filler = 'x'.repeat(1024 * 1024 - head.length - 1)
    const result = await read(Buffer.from(`${head}${filler}""y"\n`))
    expect(result.rows).toEqual([{ A: `${filler}"y` }])
  })
})
