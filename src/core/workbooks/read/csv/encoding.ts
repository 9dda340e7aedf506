/**
 * The text encoding of a csv file, decided before the first row: a BOM says UTF-8, UTF-16 LE or
 * UTF-16 BE (Excel's "CSV UTF-8" and "Unicode Text"); without one the file is UTF-8 when every
 * byte sequence is valid UTF-8, and Windows-1252 (Excel's plain "CSV" on Windows) otherwise.
 */
import { isUtf8 as validUtf8 } from 'node:buffer'
import type { ByteSource } from '../../byte-source'

export type Encoding = {
  label: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'
  bom: number
  name: string
}

/**
 * Whether every byte of the file is valid UTF-8, checked a piece at a time without decoding it:
 * a decoder's text of each piece is garbage of twice the piece's size, and a file's worth of it
 * piled up before the collector ran (60 MB of a 38 MB file, kept by the allocator after). A
 * character cut at a piece's end is checked with the start of the next.
 */
async function isUtf8(bytes: ByteSource, from: number): Promise<boolean> {
  let carried = Buffer.alloc(0)
  for await (const piece of bytes.pieces(from, bytes.size, 1024 * 1024)) {
    let rest = piece
    if (carried.length > 0) {
      const need = sequenceLength(carried[0]!) - carried.length
      const joined = Buffer.concat([carried, piece.subarray(0, need)])
      rest = piece.subarray(need)
      if (rest.length === 0 && joined.length < need + carried.length) {
        carried = joined
        continue
      }
      if (!validUtf8(joined)) return false
    }
    const cut = incompleteTail(rest)
    if (!validUtf8(rest.subarray(0, cut))) return false
    // A copy: the piece's buffer is read into again.
    carried = Buffer.from(rest.subarray(cut))
  }
  // A character cut by the end of the file is not UTF-8.
  return carried.length === 0
}

/** How many bytes the UTF-8 sequence led by `lead` has (1 for a byte that leads none). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1
  return lead >= 0xc0 ? 2 : 1
}

/** Where a sequence cut off by the end of `bytes` starts (their length when none is). */
function incompleteTail(bytes: Uint8Array): number {
  for (let at = bytes.length - 1; at >= Math.max(0, bytes.length - 3); at -= 1) {
    const byte = bytes[at]!
    if ((byte & 0xc0) === 0x80) continue
    return sequenceLength(byte) > bytes.length - at ? at : bytes.length
  }
  return bytes.length
}

export async function detectEncoding(bytes: ByteSource): Promise<Encoding> {
  const head = await bytes.readAt(0, 4096)
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { label: 'utf-8', bom: 3, name: 'UTF-8 (with BOM)' }
  if (head[0] === 0xff && head[1] === 0xfe) return { label: 'utf-16le', bom: 2, name: 'UTF-16 LE' }
  if (head[0] === 0xfe && head[1] === 0xff) return { label: 'utf-16be', bom: 2, name: 'UTF-16 BE' }
  // UTF-16 without a BOM: zero bytes in every other place.
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenZeros += 1
    if (head[i + 1] === 0) oddZeros += 1
  }
  const pairs = Math.floor(head.length / 2)
  if (pairs >= 2 && oddZeros > pairs * 0.4 && evenZeros === 0)
    return { label: 'utf-16le', bom: 0, name: 'UTF-16 LE (no BOM)' }
  if (pairs >= 2 && evenZeros > pairs * 0.4 && oddZeros === 0)
    return { label: 'utf-16be', bom: 0, name: 'UTF-16 BE (no BOM)' }
  if (await isUtf8(bytes, 0)) return { label: 'utf-8', bom: 0, name: 'UTF-8' }
  return { label: 'windows-1252', bom: 0, name: 'Windows-1252 (it is not UTF-8)' }
}
