/**
 * The text of a part's unpacked bytes, in whatever Unicode encoding it was written (a BOM, or
 * UTF-16 without one, says which), decoded chunk by chunk as the part streams out of the zip.
 */
import { StringDecoder } from 'node:string_decoder'

/** Which text encoding an XML part is in, from its first bytes (BOM, or UTF-16 without one). */
export function xmlEncoding(head: Uint8Array): {
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be'
  bom: number
} {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 }
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 }
  if (head[0] === 0x3c && head[1] === 0x00) return { encoding: 'utf-16le', bom: 0 }
  if (head[0] === 0x00 && head[1] === 0x3c) return { encoding: 'utf-16be', bom: 0 }
  return { encoding: 'utf-8', bom: 0 }
}

interface ChunkDecoder {
  write(bytes: Buffer): string
  end(): string
}

/**
 * UTF-8 through node's StringDecoder, several times faster than TextDecoder's streaming decode
 * (the sheet is most of the file). As TextDecoder does, it replaces broken sequences with
 * U+FFFD and drops a byte order mark that starts the text (one after the mark xmlEncoding took).
 */
function utf8Decoder(): ChunkDecoder {
  const decoder = new StringDecoder('utf8')
  let started = false
  const start = (text: string) => {
    if (started || !text) return text
    started = true
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
  return { write: (bytes) => start(decoder.write(bytes)), end: () => start(decoder.end()) }
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be'): ChunkDecoder {
  const decoder = new TextDecoder(encoding)
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() }
}

/** A part's unpacked bytes as text chunks, in whatever Unicode encoding it was written. */
export async function* textChunks(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let decoder: ChunkDecoder | null = null
  for await (const chunk of chunks) {
    let bytes = chunk
    if (!decoder) {
      const { encoding, bom } = xmlEncoding(chunk)
      decoder = encoding === 'utf-8' ? utf8Decoder() : utf16Decoder(encoding)
      bytes = chunk.subarray(bom)
    }
    const text = decoder.write(bytes)
    if (text) yield text
  }
  const rest = decoder?.end() ?? ''
  if (rest) yield rest
}

export function decodeText(bytes: Buffer): string {
  const { encoding, bom } = xmlEncoding(bytes)
  return new TextDecoder(encoding).decode(bytes.subarray(bom))
}
