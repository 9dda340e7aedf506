// What real spreadsheet programs write, one quirk at a time, in hand-made files: each is read
// as the reference readers read it, and never as a rejected file.
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { textChunks } from '../../src/core/workbooks/read/xlsx/part-text'
import { makeXlsx, makeZip, sheetXml, xlsxEntries, type Entry } from './support/zip'

const read = (bytes: Buffer, name = 'quirk.xlsx') =>
  readInputWorkbook({ bytes, filename: name }, null)

/** A sheet with a header row (A, B) and rows of inline strings / numbers. */
const inline = (text: string) => `<is><t>${text}</t></is>`
const header = `<row r="1"><c r="A1" t="inlineStr">${inline('A')}</c><c r="B1" t="inlineStr">${inline('B')}</c></row>`

describe('xlsx files as other programs write them', () => {
  it('reads elements with a prefix (x:row, x:c) and relationships:id', async () => {
    const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
    const entries = xlsxEntries({ sheet: '' }).map((e): Entry => {
      if (e.name === 'xl/workbook.xml')
        return {
          ...e,
          data: `<?xml version="1.0"?><x:workbook xmlns:x="${NS}" xmlns:relationships="${REL}"><x:sheets><x:sheet name="Input" sheetId="1" relationships:id="rId1"/></x:sheets></x:workbook>`,
        }
      if (e.name === 'xl/worksheets/sheet1.xml')
        return {
          ...e,
          data: `<?xml version="1.0"?><x:worksheet xmlns:x="${NS}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>A</x:t></x:is></x:c></x:row><x:row r="2"><x:c r="A2"><x:v>7</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
        }
      return e
    })
    const result = await read(makeZip(entries))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ A: 7 }])
  })

  it('finds parts named with backslashes or other letter case, and parts at the root through the relationships', async () => {
    const entries = xlsxEntries({
      sheet: `${header}<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>0</v></c></row>`,
      sharedStrings: ['two'],
    }).map((e): Entry => {
      if (e.name === 'xl/worksheets/sheet1.xml') return { ...e, name: 'XL\\Worksheets\\Sheet1.XML' }
      if (e.name === 'xl/workbook.xml') return { ...e, name: 'book.xml' }
      if (e.name === 'xl/_rels/workbook.xml.rels')
        return {
          ...e,
          name: '_rels/book.xml.rels',
          data: String(e.data)
            .replace('worksheets/sheet1.xml', 'xl/worksheets/sheet1.xml')
            .replace('Target="sharedStrings.xml"', 'Target="/xl/sharedStrings.xml"')
            .replace('Target="styles.xml"', 'Target="xl/styles.xml"'),
        }
      if (e.name === '_rels/.rels')
        return { ...e, data: String(e.data).replace('xl/workbook.xml', '/book.xml') }
      return e
    })
    const result = await read(makeZip(entries))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ A: 1, B: 'two' }])
  })

  it('reads Strict OOXML and ISO date cells (t="d"), a time of day among them', async () => {
    const strict = sheetXml(
      `${header}<row r="2"><c r="A2" t="d"><v>2024-03-05</v></c><c r="B2" t="d"><v>1899-12-30T14:30:00</v></c></row>` +
        `<row r="3"><c r="A3" t="d"><v>2024-03-05T08:15:00</v></c><c r="B3" t="d"><v>not a date</v></c></row>`,
    ).replace(
      'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
      'http://purl.oclc.org/ooxml/spreadsheetml/main',
    )
    const entries = xlsxEntries({ sheet: strict }).map((e) => ({
      ...e,
      data: String(e.data).replace(
        /http:\/\/schemas\.openxmlformats\.org\/officeDocument\/2006\/relationships/g,
        'http://purl.oclc.org/ooxml/officeDocument/relationships',
      ),
    }))
    const result = await read(makeZip(entries))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([
      { A: '2024-03-05', B: '14:30:00' },
      { A: '2024-03-05T08:15:00', B: 'not a date' },
    ])
  })

  it('shows times of day and durations as times, not as dates of 1899', async () => {
    const result = await read(
      makeXlsx({
        sheet: `${header}<row r="2"><c r="A2" s="1"><v>0.6041666666666666</v></c><c r="B2" s="2"><v>1.5104166666666667</v></c></row><row r="3"><c r="A3" s="3"><v>0.25</v></c><c r="B3" s="4"><v>45356.75</v></c></row>`,
        styles: { xfs: [0, 20, 46, 164, 22], formats: { 164: 'h:mm:ss AM/PM' } },
      }),
    )
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([
      { A: '14:30', B: '36:15:00' },
      { A: '06:00:00', B: '2024-03-05T18:00:00' },
    ])
  })

  it('keeps a date outside Excel’s calendar as a cell problem, not a rejected file', async () => {
    const dates = makeXlsx({
      sheet: `${header}<row r="2"><c r="A2" s="1"><v>99999999</v></c><c r="B2" s="1"><v>-5</v></c></row><row r="3"><c r="A3" s="1"><v>45356</v></c></row>`,
      styles: { xfs: [0, 14] },
    })
    const generic = await read(dates)
    expect(generic.fileErrors).toEqual([])
    expect(generic.rows).toEqual([{ A: 99999999, B: -5 }, { A: '2024-03-05' }])
  })

  it('counts days before March 1900 as Excel does (its 1900 leap-year bug), and 1904 dates', async () => {
    const result = await read(
      makeXlsx({
        sheet: `${header}<row r="2"><c r="A2" s="1"><v>1</v></c><c r="B2" s="1"><v>59</v></c></row><row r="3"><c r="A3" s="1"><v>60</v></c><c r="B3" s="1"><v>61</v></c></row>`,
        styles: { xfs: [0, 14] },
      }),
    )
    expect(result.rows).toEqual([
      { A: '1900-01-01', B: '1900-02-28' },
      { A: '1900-02-29', B: '1900-03-01' },
    ])
    const mac = await read(
      makeXlsx({
        sheet: `${header}<row r="2"><c r="A2" s="1"><v>0</v></c><c r="B2" s="1"><v>43890</v></c></row>`,
        styles: { xfs: [0, 14] },
        date1904: true,
      }),
    )
    expect(mac.rows).toEqual([{ A: '1904-01-01', B: '2024-03-01' }])
  })

  it('skips a chart sheet that comes first, and reads the worksheet after it', async () => {
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
    const entries = xlsxEntries({ sheet: `${header}<row r="2"><c r="A2"><v>5</v></c></row>` }).map(
      (e): Entry => {
        if (e.name === 'xl/workbook.xml')
          return {
            ...e,
            data: String(e.data).replace(
              '<sheet name="Input" sheetId="1" r:id="rId1"/>',
              '<sheet name="Chart1" sheetId="2" r:id="rId9"/><sheet name="Data" sheetId="1" r:id="rId1"/>',
            ),
          }
        if (e.name === 'xl/_rels/workbook.xml.rels')
          return {
            ...e,
            data: String(e.data).replace(
              '</Relationships>',
              `<Relationship Id="rId9" Type="${REL}/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>`,
            ),
          }
        return e
      },
    )
    entries.push({
      name: 'xl/chartsheets/sheet1.xml',
      data: '<chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
    })
    const result = await read(makeZip(entries))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ A: 5 }])
  })

  it('reads UTF-16 XML parts, single-quoted attributes and CDATA', async () => {
    const xml = `<?xml version='1.0' encoding='UTF-16'?><worksheet xmlns='http://schemas.openxmlformats.org/spreadsheetml/2006/main'><sheetData><row r='1'><c r='A1' t='inlineStr'><is><t>Naïve</t></is></c><c r='B1' t='inlineStr'><is><t><![CDATA[x < y & z]]></t></is></c></row><row r='2'><c r='A2' t='str'><v><![CDATA[a<b]]></v></c><c r='B2'><v>2</v></c></row></sheetData></worksheet>`
    const entries = xlsxEntries({ sheet: '' }).map((e): Entry =>
      e.name === 'xl/worksheets/sheet1.xml'
        ? { ...e, data: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]) }
        : e,
    )
    const result = await read(makeZip(entries))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ Naïve: 'a<b', 'x < y & z': 2 }])
  })

  it('takes the first row with text as the header, not a blank or formatting-only row', async () => {
    const result = await read(
      makeXlsx({
        sheet: `<row r="1" ht="30" customHeight="1"><c r="A1" s="1"/><c r="B1" s="1"/></row><row r="2"/><row r="3"><c r="A3" t="inlineStr">${inline('Name')}</c></row><row r="4"><c r="A4" t="inlineStr">${inline('Ada')}</c></row>`,
        styles: { xfs: [0, 14] },
      }),
    )
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ Name: 'Ada' }])
    expect(result.rowNumbers).toEqual([4])
  })

  it('reads every shape of row alike, wherever the parts are cut into chunks', async () => {
    // Thousands of rows, so that the unpacked sheet comes in many chunks and rows of every
    // shape are cut by a chunk's end somewhere.
    const rows: string[] = []
    const expected: Record<string, unknown>[] = []
    for (let r = 2; r < 6002; r += 1) {
      const shape = r % 6
      if (shape === 0) {
        rows.push(
          `<row r="${r}"><c r="A${r}"><v>${r}</v></c><c r="B${r}" t="s"><v>1</v></c><c r="C${r}" t="b"><v>1</v></c></row>`,
        )
        expected.push({ A: r, B: 'two', C: true })
      } else if (shape === 1) {
        rows.push(
          `<row r="${r}">\n  <c r="A${r}"><v>${r}</v></c>\n  <c r="B${r}" t="str"><v>x &amp; y</v></c>\n</row>`,
        )
        expected.push({ A: r, B: 'x & y' })
      } else if (shape === 2) {
        rows.push(
          `<row r="${r}"><c r="A${r}"><f>1+1</f><v>${r}</v></c><c r="B${r}" t="inlineStr">${inline('in')}</c></row>`,
        )
        expected.push({ A: r, B: 'in' })
      } else if (shape === 3) {
        rows.push(`<row><c><v>${r}</v></c><c/><c t="s"><v>0</v></c></row>`)
        expected.push({ A: r, C: 'one' })
      } else if (shape === 4) {
        rows.push(
          `<row r="${r}" spans="1:3"><c r="A${r}"><v>${r}.5</v></c><c r='B${r}' s='1'><v>45356</v></c></row>`,
        )
        expected.push({ A: r + 0.5, B: '2024-03-05' })
      } else {
        rows.push(`<row r="${r}"><c r="C${r}"><v>-${r}</v></c></row>`)
        expected.push({ C: -r })
      }
    }
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr">${inline(text)}</c>`
    const result = await read(
      makeXlsx({
        sheet: `<row r="1">${cell('A1', 'A')}${cell('B1', 'B')}${cell('C1', 'C')}</row>${rows.join('')}`,
        sharedStrings: ['one', 'two'],
        styles: { xfs: [0, 14] },
      }),
    )
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual(expected)
    expect(result.rowNumbers).toEqual(expected.map((_, i) => i + 2))
  })

  it('reads every shape of shared string alike, wherever the part is cut into chunks', async () => {
    const shapes: [(i: number) => string, (i: number) => string | undefined][] = [
      [(i) => `<si><t>plain ${i}</t></si>`, (i) => `plain ${i}`],
      [(i) => `<si><t xml:space="preserve"> spaced ${i} </t></si>`, (i) => ` spaced ${i} `],
      [(i) => `<si><r><rPr><b/></rPr><t>rich</t></r><r><t> ${i}</t></r></si>`, (i) => `rich ${i}`],
      [
        (i) => `<si><t>a &amp; b ${i}</t><rPh sb="0" eb="1"><t>x</t></rPh></si>`,
        (i) => `a & b ${i}`,
      ],
      [() => `<si><t/></si>`, () => undefined],
      [(i) => `<si>\n<t>line ${i}</t>\n</si>`, (i) => `line ${i}`],
      [(i) => `<si><t><![CDATA[<x> ${i}]]></t></si>`, (i) => `<x> ${i}`],
      [(i) => `<si><t>x &lt; y ${i}</t></si>`, (i) => `x < y ${i}`],
      [(i) => `<si><t>_x0041_ ${i}</t></si>`, (i) => `A ${i}`],
      [(i) => `<si><t>a_xb ${i}_</t></si>`, (i) => `a_xb ${i}_`],
    ]
    const strings: string[] = []
    const rows: string[] = []
    const expected: Record<string, unknown>[] = []
    for (let i = 0; i < 8000; i += 1) {
      const [xml, text] = shapes[i % shapes.length]!
      strings.push(xml(i))
      const r = i + 2
      rows.push(
        `<row r="${r}"><c r="A${r}"><v>${i}</v></c><c r="B${r}" t="s"><v>${i}</v></c></row>`,
      )
      const b = text(i)
      expected.push(b === undefined ? { A: i } : { A: i, B: b })
    }
    const entries = xlsxEntries({ sheet: `${header}${rows.join('')}`, sharedStrings: [] }).map(
      (e): Entry =>
        e.name === 'xl/sharedStrings.xml'
          ? { ...e, data: `<?xml version="1.0"?><sst>${strings.join('')}</sst>` }
          : e,
    )
    const result = await read(makeZip(entries))
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual(expected)
  })

  it('decodes UTF-8 cut anywhere, byte order marks and broken bytes as TextDecoder does', async () => {
    const bom = [0xef, 0xbb, 0xbf]
    const text = Buffer.from('<a>Naïve € 😀 — ü</a>', 'utf8')
    const samples = [
      [...bom, ...text],
      [...bom, ...bom, ...text],
      [...text, ...bom, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0xed, 0xa0, 0x80, 0x41],
      [...text, 0xe2, 0x82],
    ]
    for (const sample of samples) {
      const bytes = Buffer.from(sample)
      for (let size = 1; size <= 5; size += 1) {
        const chunks = async function* () {
          for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
        }
        // TextDecoder on the same chunks, after a mark whole in the first chunk.
        const decoder = new TextDecoder('utf-8')
        let expected = ''
        let first = true
        for await (const chunk of chunks()) {
          const mark = first && chunk.subarray(0, 3).equals(Buffer.from(bom))
          first = false
          expected += decoder.decode(chunk.subarray(mark ? 3 : 0), { stream: true })
        }
        expected += decoder.decode()
        let out = ''
        for await (const piece of textChunks(chunks())) out += piece
        expect([size, out]).toEqual([size, expected])
      }
    }
  })

  it('reads a zip64 file itself', async () => {
    const result = await read(
      makeXlsx({ sheet: `${header}<row r="2"><c r="A2"><v>3</v></c></row>` }, { zip64: true }),
    )
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([{ A: 3 }])
  })
})

describe('hostile xlsx files end in one clear file error', () => {
  const expectFileError = async (bytes: Buffer, pattern: RegExp) => {
    const result = await read(bytes)
    expect(result.valid).toBe(false)
    expect(result.fileErrors.join(' ')).toMatch(pattern)
    // Never an internal message.
    expect(result.fileErrors.join(' ')).not.toMatch(
      /Invalid (time value|array length)|FILE_ENDED|reading '|undefined/,
    )
    return result
  }

  it('a reference past column XFD', () =>
    expectFileError(
      makeXlsx({ sheet: `${header}<row r="2"><c r="ZZZZZZZZZZ2"><v>1</v></c></row>` }),
      /beyond column XFD/,
    ))

  it('a row past 1,048,576', () =>
    expectFileError(
      makeXlsx({ sheet: `${header}<row r="99999999"><c r="A99999999"><v>1</v></c></row>` }),
      /beyond row 1,048,576/,
    ))

  it('a size of 0xFFFFFFFE in the zip directory', () => {
    const entries = xlsxEntries({ sheet: header })
    entries[4] = { ...entries[4]!, fakeCompressedSize: 0xfffffffe }
    return expectFileError(makeZip(entries), /damaged.*claims more bytes than the file holds/)
  })

  it('a zip bomb in workbook.xml', () => {
    const entries = xlsxEntries({ sheet: header })
    entries[2] = { ...entries[2]!, data: `<workbook>${' '.repeat(40 * 1024 * 1024)}</workbook>` }
    return expectFileError(makeZip(entries), /unpacks to more than 32 MB/)
  })

  it('a <row> that never closes', () =>
    expectFileError(
      makeXlsx({
        sheet: sheetXml(
          `${header}<row r="2"><c r="A2"><v>1</v></c>${'<c><v>1</v></c>'.repeat(5)}`,
        ).replace('</sheetData></worksheet>', ' '.repeat(70 * 1024 * 1024)),
      }),
      /<row> element longer than 64 MB \(or one that never ends\)/,
    ))

  it('a cut-off file', () =>
    expectFileError(makeXlsx({ sheet: header }).subarray(0, 300), /damaged/))

  it('lists at most 50 file problems and says how many more', async () => {
    const cells = Array.from(
      { length: 80 },
      (_, i) =>
        `<c r="${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}1" t="inlineStr">${inline(`extra ${i}`)}</c>`,
    ).join('')
    const result = await readInputWorkbook(
      {
        bytes: makeXlsx({
          sheet: `<row r="1">${cells}</row><row r="2"><c r="AA2"><v>1</v></c></row>`,
        }),
        filename: 'wide.xlsx',
      },
      { fields: [], columns: [] },
    )
    expect(result.fileErrors).toHaveLength(51)
    expect(result.fileErrors[50]).toMatch(/^30 more problems with the file are not listed/)
  })
})
