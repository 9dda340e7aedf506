/**
 * The web links of a sheet's cells (its <hyperlink> elements and their relationships): in url
 * and file columns a linked cell means its link, not the words it shows.
 */
import { MAX_COLUMNS, MAX_ROWS, MAX_SHEET_BYTES, RESAVE, WorkbookFileError } from '../../limits'
import { textChunks } from './part-text'
import { relationships, typeIs } from './relationships'
import { attribute, eachElement, unprefixed } from './xml'
import type { Zip } from './zip'

/** The links of one row's cells: column (0-based) -> address; undefined when it has none. */
export type RowLinks = (row: number, width: number) => Map<number, string> | undefined

export function tooWide(where: string): never {
  throw new WorkbookFileError(
    `${where} has a cell beyond column XFD, the last column a spreadsheet can have. ${RESAVE}`,
  )
}

/** Column index (0-based) of a cell reference's letters; past XFD is a file error. */
function columnIndex(ref: string, where: () => string): number {
  let n = 0
  for (let i = 0; i < ref.length; i += 1) {
    const c = ref.charCodeAt(i) & ~32
    if (c < 65 || c > 90) break
    n = n * 26 + (c - 64)
    if (n > MAX_COLUMNS) tooWide(where())
  }
  return n - 1
}

/** A cell reference like "B12" as [row, column (0-based)], or null. */
function cellRef(ref: string): [number, number] | null {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref)
  if (!match) return null
  const row = Number(match[2])
  const column = columnIndex(match[1]!, () => 'A link')
  return row >= 1 && row <= MAX_ROWS ? [row, column] : null
}

/** The web links of a sheet, by row; null when it has none. */
export async function sheetLinks(
  zip: Zip,
  sheet: { name: string; part: string },
): Promise<RowLinks | null> {
  const single = new Map<number, [number, number, string][]>()
  const ranges: [number, number, number, number, string][] = []
  const targets = new Map<string, string>()
  for (const [id, rel] of await relationships(zip, sheet.part))
    if (typeIs(rel, 'hyperlink')) targets.set(id, rel.target)
  if (targets.size === 0) return null
  await eachElement(
    unprefixed(textChunks(zip.inflate(zip.find(sheet.part)!, MAX_SHEET_BYTES))),
    'hyperlink',
    (element) => {
      const id = attribute(element, '*:id')
      const target = id ? targets.get(id) : undefined
      const [from, to = from] = (attribute(element, 'ref') ?? '').split(':')
      const start = cellRef(from ?? '')
      const end = cellRef(to ?? '')
      if (!target || !start || !end) return
      if (start[0] === end[0]) {
        const list = single.get(start[0]) ?? []
        list.push([start[1], end[1], target])
        single.set(start[0], list)
      } else if (ranges.length < 10_000) ranges.push([start[0], end[0], start[1], end[1], target])
    },
    `The sheet “${sheet.name}”`,
  )
  return (row, width) => {
    const here = single.get(row)
    let out: Map<number, string> | undefined
    const add = (c1: number, c2: number, target: string) => {
      out ??= new Map()
      for (let c = c1; c <= Math.min(c2, width - 1); c += 1) out.set(c, target)
    }
    if (here) for (const [c1, c2, target] of here) add(c1, c2, target)
    for (const [r1, r2, c1, c2, target] of ranges) if (row >= r1 && row <= r2) add(c1, c2, target)
    return out
  }
}
