/**
 * The text encoding of a csv file, decided before the first row: a BOM says UTF-8, UTF-16 LE or
 * UTF-16 BE (Excel's "CSV UTF-8" and "Unicode Text"); without one the file is UTF-8 when every
 * byte sequence is valid UTF-8, and Windows-1252 (Excel's plain "CSV" on Windows) otherwise.
 */
import type { ByteSource } from '../../byte-source'

export type Encoding = {
  label: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'
  bom: number
  name: string
}

/** Whether every byte of the file is valid UTF-8 (read in chunks; nothing kept). */
async function isUtf8(bytes: ByteSource, from: number): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  try {
    for await (const chunk of bytes.chunks(from, bytes.size, 1024 * 1024))
      decoder.decode(chunk, { stream: true })
    decoder.decode()
    return true
  } catch {
    return false
  }
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
