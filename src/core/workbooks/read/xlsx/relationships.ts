/**
 * The package's relationships (`_rels/*.rels`): how an xlsx names its parts, wherever the
 * program that wrote it put them, and the small parts read whole.
 */
import { MAX_SMALL_PART_BYTES } from '../../limits'
import { decodeText } from './part-text'
import { attribute, startTags, unprefixedText } from './xml'
import type { Zip, ZipEntry } from './zip'

export interface Relationship {
  type: string
  target: string
  external: boolean
}

/** A part name relative to the folder of the part that names it ("../x" and "/x" included). */
function resolvePart(base: string, target: string): string {
  const clean = target.replace(/\\/g, '/')
  const parts = clean.startsWith('/') ? [] : base.split('/').slice(0, -1)
  for (const segment of clean.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') parts.pop()
    else parts.push(segment)
  }
  return parts.join('/')
}

function relsPartOf(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

/** A small part (workbook, relationships, styles) as text, element prefixes removed. */
export async function smallText(zip: Zip, entry: ZipEntry): Promise<string> {
  return unprefixedText(decodeText(await zip.bytes(entry, MAX_SMALL_PART_BYTES)))
}

/** The relationships of a part ('' for the package's own), by id. */
export async function relationships(zip: Zip, part: string): Promise<Map<string, Relationship>> {
  const out = new Map<string, Relationship>()
  const entry = zip.find(relsPartOf(part))
  if (!entry) return out
  for (const tag of startTags(await smallText(zip, entry), 'Relationship')) {
    const id = attribute(tag, 'Id')
    const target = attribute(tag, 'Target')
    if (!id || target === undefined) continue
    const external = attribute(tag, 'TargetMode') === 'External'
    out.set(id, {
      type: attribute(tag, 'Type') ?? '',
      target: external ? target : resolvePart(part, target),
      external,
    })
  }
  return out
}

/** Whether a relationship is of a type (its type URI's last segment, any letter case). */
export const typeIs = (rel: Relationship, name: string) =>
  rel.type.toLowerCase().endsWith(`/${name.toLowerCase()}`)
