// A small zip writer for tests: hand-made .xlsx files with exactly the quirks a test needs
// (odd entry names, stored or deflated parts, lying sizes, zip64 records).
import { deflateRawSync, crc32 } from 'node:zlib'

export interface Entry {
  name: string
  data: Buffer | string
  /** 0 stored, 8 deflated (default). */
  method?: 0 | 8
  /** zlib's level for a deflated entry (its default when absent); 1 packs a big part fast. */
  level?: number
  /** Sizes written in the central directory instead of the real ones. */
  fakeCompressedSize?: number
  fakeUncompressedSize?: number
}

export interface ZipOptions {
  /** Write zip64 records (sizes and offsets in the zip64 extra field, zip64 end records). */
  zip64?: boolean
}

export function makeZip(entries: Entry[], options: ZipOptions = {}): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const raw = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8')
    const method = entry.method ?? 8
    const packed = method === 8 ? deflateRawSync(raw, { level: entry.level ?? -1 }) : raw
    const name = Buffer.from(entry.name, 'utf8')
    const crc = crc32(raw)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x800, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(raw.length, 22)
    local.writeUInt16LE(name.length, 26)
    locals.push(local, name, packed)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(45, 4)
    central.writeUInt16LE(45, 6)
    central.writeUInt16LE(0x800, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    let extra = Buffer.alloc(0)
    if (options.zip64) {
      central.writeUInt32LE(0xffffffff, 20)
      central.writeUInt32LE(0xffffffff, 24)
      central.writeUInt32LE(0xffffffff, 42)
      extra = Buffer.alloc(4 + 24)
      extra.writeUInt16LE(1, 0)
      extra.writeUInt16LE(24, 2)
      extra.writeBigUInt64LE(BigInt(entry.fakeUncompressedSize ?? raw.length), 4)
      extra.writeBigUInt64LE(BigInt(entry.fakeCompressedSize ?? packed.length), 12)
      extra.writeBigUInt64LE(BigInt(offset), 20)
    } else {
      central.writeUInt32LE(entry.fakeCompressedSize ?? packed.length, 20)
      central.writeUInt32LE(entry.fakeUncompressedSize ?? raw.length, 24)
      central.writeUInt32LE(offset, 42)
    }
    central.writeUInt16LE(name.length, 28)
    central.writeUInt16LE(extra.length, 30)
    centrals.push(central, name, extra)
    offset += 30 + name.length + packed.length
  }
  const cd = Buffer.concat(centrals)
  const tail: Buffer[] = []
  if (options.zip64) {
    const record = Buffer.alloc(56)
    record.writeUInt32LE(0x06064b50, 0)
    record.writeBigUInt64LE(44n, 4)
    record.writeUInt16LE(45, 12)
    record.writeUInt16LE(45, 14)
    record.writeBigUInt64LE(BigInt(entries.length), 24)
    record.writeBigUInt64LE(BigInt(entries.length), 32)
    record.writeBigUInt64LE(BigInt(cd.length), 40)
    record.writeBigUInt64LE(BigInt(offset), 48)
    const locator = Buffer.alloc(20)
    locator.writeUInt32LE(0x07064b50, 0)
    locator.writeBigUInt64LE(BigInt(offset + cd.length), 8)
    locator.writeUInt32LE(1, 16)
    tail.push(record, locator)
  }
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 8)
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 10)
  end.writeUInt32LE(options.zip64 ? 0xffffffff : cd.length, 12)
  end.writeUInt32LE(options.zip64 ? 0xffffffff : offset, 16)
  return Buffer.concat([...locals, cd, ...tail, end])
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships'

export interface XlsxParts {
  /** The first sheet's XML body (what goes inside <sheetData>), or a whole document. */
  sheet: string
  sharedStrings?: string[]
  /** cellXfs numFmtIds, with custom formats (id -> code). */
  styles?: { xfs: number[]; formats?: Record<number, string> }
  date1904?: boolean
}

export function sheetXml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetData>${body}</sheetData></worksheet>`
}

/** The entries of a minimal, valid xlsx with one sheet named Input. */
export function xlsxEntries(parts: XlsxParts): Entry[] {
  const entries: Entry[] = [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}">${parts.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets><sheet name="Input" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data:
        parts.sheet.startsWith('<?xml') ||
        (parts.sheet.startsWith('<') && parts.sheet.includes('worksheet'))
          ? parts.sheet
          : sheetXml(parts.sheet),
    },
  ]
  if (parts.sharedStrings)
    entries.push({
      name: 'xl/sharedStrings.xml',
      data: `<?xml version="1.0"?><sst xmlns="${NS}">${parts.sharedStrings.map((s) => `<si><t xml:space="preserve">${s}</t></si>`).join('')}</sst>`,
    })
  if (parts.styles) {
    const formats = Object.entries(parts.styles.formats ?? {})
    entries.push({
      name: 'xl/styles.xml',
      data: `<?xml version="1.0"?><styleSheet xmlns="${NS}">${formats.length ? `<numFmts count="${formats.length}">${formats.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code.replace(/"/g, '&quot;')}"/>`).join('')}</numFmts>` : ''}<cellXfs count="${parts.styles.xfs.length}">${parts.styles.xfs.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"/>`).join('')}</cellXfs></styleSheet>`,
    })
  }
  return entries
}

export function makeXlsx(parts: XlsxParts, options: ZipOptions = {}): Buffer {
  return makeZip(xlsxEntries(parts), options)
}
